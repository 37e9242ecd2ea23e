import type { AccountRow } from '../../../storage/repositories/account.repository.js';
import { html, type Html } from './html.js';

export interface PageContext {
  account: AccountRow;
  csrf: string;
}

const NAV = [
  ['/', 'Cameras'],
  ['/alerts', 'Alerts'],
  ['/plates', 'Plates'],
  ['/watchlists', 'Watchlists'],
  ['/recognition', 'Recognition'],
  ['/webhooks', 'Webhooks'],
  ['/tokens', 'API tokens'],
] as const;

/** The page shell: header with navigation and sign-out, then the page's own content. */
export function layout(o: { title: string; active?: string; ctx?: PageContext; body: Html; notice?: string | undefined; error?: string | undefined }): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · Vigil</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/dashboard.css">
<script src="/assets/dashboard.js" defer></script>
</head>
<body${o.ctx ? html` data-events="/live/events"` : ''}>
<header class="top">
  <a class="brand" href="/">Vigil</a>
  ${o.ctx ? html`<nav>${NAV.map(([href, label]) => html`<a href="${href}"${o.active === href ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>
  <form method="post" action="/logout" class="signout"><input type="hidden" name="_csrf" value="${o.ctx.csrf}"><span class="who">${o.ctx.account.email}</span> <button type="submit" class="link">Sign out</button></form>` : ''}
</header>
<main>
${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : ''}
${o.error ? html`<p class="error" role="alert">${o.error}</p>` : ''}
${o.body}
</main>
</body>
</html>`;
}

export function csrfField(ctx: PageContext): Html {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;
}
