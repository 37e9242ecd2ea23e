import { WATCHLIST_TAGS, type WatchlistView } from '../../../services/recognition/watchlist.service.js';
import { html, type Html } from './html.js';
import { csrfField, layout, type PageContext } from './layout.js';

/** Plates as the textarea holds them: one per line, a note after a comma. */
export const platesText = (l: Pick<WatchlistView, 'plates'>) => l.plates.map((p) => (p.note ? `${p.plate.toUpperCase()}, ${p.note}` : p.plate.toUpperCase())).join('\n');

const platesArea = (value: string) => html`<label>Plates, one per line (a note after a comma)
<textarea name="plates" rows="6" spellcheck="false">${value}</textarea></label>`;

/** The watchlists page: each list with its plates (editable), and a form for a new one. */
export function watchlistsPage(ctx: PageContext, lists: readonly WatchlistView[], notice?: string): Html {
  const items = lists.map((l) => html`<li class="panel watchlist">
<div class="head"><strong>${l.name}</strong> <span class="tag">${l.tag}</span>${l.fuzzy ? html` <span class="meta">fuzzy</span>` : ''} <span class="meta">${String(l.plates.length)} ${l.plates.length === 1 ? 'plate' : 'plates'}</span></div>
<form method="post" action="/watchlists/${String(l.id)}/plates" class="stack">${csrfField(ctx)}${platesArea(platesText(l))}<button type="submit" class="small">Save plates</button></form>
<form method="post" action="/watchlists/${String(l.id)}/delete" data-confirm="Delete this watchlist?">${csrfField(ctx)}<button type="submit" class="small danger">Delete</button></form>
</li>`);
  return layout({
    title: 'Watchlists', active: '/watchlists', ctx, notice,
    body: html`<h1>Watchlists</h1>
<p class="meta">Every plate read is checked against these lists; a match goes to <code>plate-watchlist</code> webhooks, and, for alert and deny lists, by e-mail.</p>
<form method="post" action="/watchlists/create" class="panel stack">${csrfField(ctx)}
<label>Name <input name="name" maxlength="100" required></label>
<label>Tag <select name="tag">${WATCHLIST_TAGS.map((t) => html`<option value="${t}">${t}</option>`)}</select></label>
<label class="check"><input type="checkbox" name="fuzzy" value="on"> also plates one character off</label>
${platesArea('')}
<button type="submit">Create watchlist</button></form>
${lists.length ? html`<ul class="webhooks">${items}</ul>` : html`<p class="empty">No watchlist yet.</p>`}`,
  });
}
