import type { HistoryRead, HistoryVisit } from '../../../services/recognition/plate-history.service.js';
import { html, type Html } from './html.js';
import { layout, type PageContext } from './layout.js';
import { localImage, score, thumbnailOf, utc } from './format.js';

export interface PlateSearch {
  plate: string;
  fuzzy: boolean;
  camera: string;
  /** Region code as read (`us`, `us-ca`, `br`). */
  region: string;
  /** A UTC day, YYYY-MM-DD. */
  day: string;
}

const photo = (url: string | null, alt: string) =>
  url ? html`<a href="${localImage(url)}" target="_blank" rel="noopener"><img class="mini" src="${thumbnailOf(url)}" alt="${alt}" loading="lazy"></a>` : html`<span class="muted">–</span>`;

/** A read, with the watchlists its plate is on where the page looked them up. */
type ListedRead = HistoryRead & { lists?: ReadonlyArray<{ name: string; tag: string }> };

const readRows = (reads: readonly ListedRead[], withVisit: boolean) => reads.map((r) => html`<tr>
  <td>${utc(Date.parse(r.timestamp))}</td><td>${r.camera_id ?? '–'}</td><td class="plate">${r.plate.toUpperCase()}${(r.lists ?? []).map((l) => html` <span class="tag watch-${l.tag}" title="on watchlist ${l.name}">${l.name}</span>`)}</td>
  <td>${score(r.score)}</td><td>${r.region.code}</td>
  ${withVisit ? html`<td>${r.visit_id ? html`<a href="/plates/visits/${String(r.visit_id)}">visit</a>` : '–'}</td>` : ''}
  <td>${photo(r.image_url, `Photo of ${r.plate.toUpperCase()}`)}</td></tr>`);

/** The Plates page: the account's plate reads, newest first, searchable (fuzzy too). */
export function platesPage(ctx: PageContext, search: PlateSearch, reads: readonly ListedRead[], older: string | null, csv: string): Html {
  return layout({
    title: 'Plates', active: '/plates', ctx,
    body: html`<h1>Plates</h1>
<form method="get" action="/plates" class="filters" role="search">
  <label>Plate <input name="plate" value="${search.plate}" maxlength="32" autocomplete="off"></label>
  <label class="check"><input type="checkbox" name="fuzzy" value="on"${search.fuzzy ? html` checked` : ''}> also look-alikes and one character off</label>
  <label>Camera <input name="camera_id" value="${search.camera}" maxlength="128"></label>
  <label>Region <input name="region" value="${search.region}" maxlength="16" size="6" placeholder="us-ca"></label>
  <label>Day (UTC) <input type="date" name="day" value="${search.day}"></label>
  <button type="submit">Search</button> <a href="${csv}" download>CSV</a>
</form>
${reads.length === 0 ? html`<p class="muted">No plate reads${search.plate || search.camera || search.region || search.day ? ' match' : ' yet'}.</p>` : html`<table class="list reads">
<thead><tr><th>Read</th><th>Camera</th><th>Plate</th><th>Score</th><th>Region</th><th>Visit</th><th>Photo</th></tr></thead>
<tbody>${readRows(reads, true)}</tbody></table>`}
${older ? html`<p><a href="${older}" rel="next">Older reads</a></p>` : ''}`,
  });
}

/** One visit: its best read and every read of it. */
export function visitPage(ctx: PageContext, visit: HistoryVisit & { results: HistoryRead[] }): Html {
  return layout({
    title: `Visit of ${visit.plate.toUpperCase()}`, active: '/plates', ctx,
    body: html`<h1>Visit of <span class="plate">${visit.plate.toUpperCase()}</span></h1>
<p>${visit.camera_id ?? 'No camera'} · ${utc(Date.parse(visit.first_seen))} to ${utc(Date.parse(visit.last_seen))} · ${String(visit.reads)} reads · best score ${score(visit.score)}</p>
<table class="list reads"><thead><tr><th>Read</th><th>Camera</th><th>Plate</th><th>Score</th><th>Region</th><th>Photo</th></tr></thead>
<tbody>${readRows(visit.results, false)}</tbody></table>
<p><a href="/plates?plate=${encodeURIComponent(visit.plate)}">All reads of ${visit.plate.toUpperCase()}</a></p>`,
  });
}
