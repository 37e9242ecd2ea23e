import { OCR_TYPES } from '../../../vision/ocr/ocr.types.js';
import type { DashboardService } from '../../../services/dashboard/dashboard.service.js';
import { WEBHOOK_FAMILIES } from '../../../services/notifications/ports.js';
import { cameraPath, statusClass, statusLabel, thumbnailOf, utc } from './format.js';
import { html, type Html } from './html.js';
import { csrfField, layout, type PageContext } from './layout.js';

type Alerts = Awaited<ReturnType<DashboardService['alerts']>>;
type Tokens = Awaited<ReturnType<DashboardService['tokens']>>;
type Webhooks = Awaited<ReturnType<DashboardService['webhooks']>>;
type Usage = Awaited<ReturnType<DashboardService['usage']>>;

export function loginPage(o: { email?: string; error?: string; next?: string; notice?: string; linksEnabled?: boolean }): Html {
  return layout({
    title: 'Sign in', error: o.error, notice: o.notice,
    body: html`<section class="login panel"><h1>Sign in</h1>
<form method="post" action="/login" class="stack">
<input type="hidden" name="next" value="${o.next ?? '/'}">
<label>E-mail <input type="email" name="email" value="${o.email ?? ''}" autocomplete="username" required autofocus></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>
<p class="meta">An administrator sets the password with <code>vigil accounts set-password</code>.</p></section>
${o.linksEnabled ? html`<section class="login panel" id="link"><h2>No password? Get a link by e-mail</h2>
<form method="post" action="/login/link" class="stack">
<input type="hidden" name="next" value="${o.next ?? '/'}">
<label>E-mail <input type="email" name="email" value="${o.email ?? ''}" autocomplete="username" required></label>
<button type="submit" class="secondary">E-mail me a sign-in link</button>
</form></section>` : ''}`,
  });
}

/** The page an e-mailed link opens: one button, so a mail scanner that follows links does not
 * use up the link before its owner clicks it. */
export function loginLinkPage(token: string, next = '/'): Html {
  return layout({
    title: 'Sign in',
    body: html`<section class="login panel"><h1>Sign in</h1>
<form method="post" action="/login/link/use" class="stack">
<input type="hidden" name="token" value="${token}">
<input type="hidden" name="next" value="${next}">
<button type="submit">Continue to the dashboard</button>
</form>
<p class="meta">This link works once. It was sent because someone asked for it on the sign-in page.</p></section>`,
  });
}

export function errorPage(ctx: PageContext | undefined, status: number, message: string): Html {
  const title = status === 404 ? 'Not found' : status === 403 ? 'Refused' : status === 429 ? 'Too many requests' : status >= 500 ? 'Something went wrong' : 'Cannot do that';
  return layout({ title, ctx, body: html`<h1>${title}</h1><p class="error">${message}</p><p><a href="/">Back to the cameras</a></p>` });
}

export function alertsPage(ctx: PageContext, alerts: Alerts): Html {
  const rows = alerts.map(({ alert, cameras }) => html`<li class="alert panel">
  <div class="head"><time>${utc(alert.created_at)}</time> · License <code>${alert.license_code}</code>
  <span class="badge ${alert.sent ? 'status-normal' : 'status-no_data'}">${alert.sent ? 'sent' : alert.dispatched_at === null ? 'collecting' : 'not sent'}</span></div>
  <ul class="alert-cameras">${cameras.map(({ row, snapshot, referenceImage }) => {
    const anomalies = Object.entries(JSON.parse(row.anomalies) as Record<string, number>);
    const name = row.camera_id === null ? html`${row.name}` : html`<a href="${cameraPath(alert.license_id, row.serial)}">${row.name}</a>`;
    return html`<li><div class="pics">${[snapshot, referenceImage].map((u, i) => (u ? html`<img class="mini" src="${thumbnailOf(u)}" alt="${i === 0 ? 'Snapshot' : 'Reference'}" loading="lazy">` : html`<span class="mini nothumb">${i === 0 ? 'no snapshot' : 'no reference'}</span>`))}</div>
    <div>${name} <code>${row.serial}</code> <span class="badge ${statusClass(row.status)}">${statusLabel(row.status)}</span>
    ${anomalies.length ? html`<div class="meta">${anomalies.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}</div>` : ''}</div></li>`;
  })}</ul>
</li>`);
  return layout({
    title: 'Alerts', active: '/alerts', ctx,
    body: html`<h1>Alerts</h1>${alerts.length ? html`<ol class="alerts">${rows}</ol>` : html`<p class="empty">No alert yet. A camera entering anomaly or offline, or recovering, raises one.</p>`}`,
  });
}

export function tokensPage(ctx: PageContext, tokens: Tokens, created?: string): Html {
  return layout({
    title: 'API tokens', active: '/tokens', ctx,
    body: html`<h1>API tokens</h1>
${created ? html`<div class="panel secret" data-new-token><p><strong>New token: copy it now.</strong> It is shown this once and never again.</p><code class="token">${created}</code></div>` : ''}
<form method="post" action="/tokens/create">${csrfField(ctx)}<button type="submit">Create a token</button></form>
<p class="meta">Send it as <code>Authorization: Token &lt;token&gt;</code>.</p>
${tokens.length ? html`<table class="list"><thead><tr><th>Token</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>${tokens.map((t) => html`<tr>
<td><code>${t.token_prefix}…</code></td><td>${utc(t.created_at)}</td><td>${utc(t.last_used_at)}</td>
<td><form method="post" action="/tokens/${t.id}/revoke" data-confirm="Revoke this token? Clients using it stop working.">${csrfField(ctx)}<button type="submit" class="small danger">Revoke</button></form></td></tr>`)}</tbody></table>` : html`<p class="empty">No active token.</p>`}`,
  });
}

export const WEBHOOK_NOTICES: Record<string, string> = {
  enabled: 'Webhook enabled again.', deleted: 'Webhook deleted.', test: 'Test event queued: its delivery appears below in a moment.',
};

export function webhooksPage(ctx: PageContext, hooks: Webhooks, o: { notice?: string; secret?: string } = {}): Html {
  const list = hooks.map(({ webhook: w, deliveries }) => html`<li class="panel webhook">
<div class="head"><code class="url">${w.url}</code> <span class="tag">${w.family}</span>
<span class="badge ${w.active ? 'status-normal' : 'status-offline'}">${w.active ? 'active' : 'deactivated'}</span>
${w.consecutive_failures ? html`<span class="meta">${w.consecutive_failures} failed ${w.consecutive_failures === 1 ? 'attempt' : 'attempts in a row'}</span>` : ''}</div>
<div class="buttons">${w.active ? html`<form method="post" action="/webhooks/${w.id}/test">${csrfField(ctx)}<button type="submit" class="small">Send a test event</button></form>` : html`<form method="post" action="/webhooks/${w.id}/enable">${csrfField(ctx)}<button type="submit" class="small">Enable again</button></form>`}
<form method="post" action="/webhooks/${w.id}/delete" data-confirm="Delete this webhook and its delivery history?">${csrfField(ctx)}<button type="submit" class="small danger">Delete</button></form></div>
${deliveries.length ? html`<table class="list"><thead><tr><th>When</th><th>Event</th><th>Try</th><th>Status</th><th>Duration</th><th>Error</th></tr></thead><tbody>${deliveries.map((d) => html`<tr class="${d.succeeded ? '' : 'failed'}">
<td>${utc(d.created_at)}</td><td>${d.event}</td><td>${d.attempt}</td><td>${d.status_code ?? '–'}</td><td>${d.duration_ms} ms</td><td class="err">${d.error ?? ''}</td></tr>`)}</tbody></table>` : html`<p class="meta">No delivery yet.</p>`}
</li>`);
  return layout({
    title: 'Webhooks', active: '/webhooks', ctx, notice: o.notice,
    body: html`<h1>Webhooks</h1>
${o.secret ? html`<div class="panel secret"><p><strong>Signing secret: copy it now.</strong> It is shown this once.</p><code class="token">${o.secret}</code></div>` : ''}
<form method="post" action="/webhooks/create" class="panel inline">${csrfField(ctx)}
<label>URL <input type="url" name="url" placeholder="https://example.com/hook" required></label>
<label>Family <select name="family">${WEBHOOK_FAMILIES.map((f) => html`<option value="${f}">${f}</option>`)}</select></label>
<button type="submit">Add webhook</button></form>
${hooks.length ? html`<ul class="webhooks">${list}</ul>` : html`<p class="empty">No webhook yet.</p>`}`,
  });
}

export const RECOGNITION_KINDS = [...OCR_TYPES, 'plate'] as const;

export interface RecognitionOutcome {
  kind: string;
  image: { dataUrl: string; width: number; height: number };
  boxes: Array<{ xmin: number; ymin: number; xmax: number; ymax: number; label: string }>;
  readings: Array<{ value: string; detail: string }>;
  json: string;
}

export function recognitionPage(ctx: PageContext, usage: Usage, outcome?: RecognitionOutcome, error?: string): Html {
  const result = outcome && html`<section class="result"><h2>Result</h2>
<div class="overlay"><img src="${outcome.image.dataUrl}" alt="The uploaded image">
<svg viewBox="0 0 ${outcome.image.width} ${outcome.image.height}" preserveAspectRatio="none" aria-hidden="true">${outcome.boxes.map((b) => html`<rect x="${b.xmin}" y="${b.ymin}" width="${b.xmax - b.xmin}" height="${b.ymax - b.ymin}" class="box"/><text x="${b.xmin}" y="${Math.max(0, b.ymin - 4)}" class="box-label">${b.label}</text>`)}</svg></div>
${outcome.readings.length ? html`<ul class="readings">${outcome.readings.map((r) => html`<li><code>${r.value}</code> <span class="meta">${r.detail}</span></li>`)}</ul>` : html`<p class="empty">Nothing was read in this image.</p>`}
<details><summary>Response as the API returns it</summary><pre>${outcome.json}</pre></details></section>`;
  return layout({
    title: 'Recognition', active: '/recognition', ctx, error,
    body: html`<h1>Recognition</h1>
<form method="post" action="/recognition" enctype="multipart/form-data" class="panel inline">${csrfField(ctx)}
<label>Read <select name="kind">${RECOGNITION_KINDS.map((k) => html`<option value="${k}"${outcome?.kind === k ? html` selected` : ''}>${k === 'plate' ? 'licence plates' : k.replace(/_/g, ' ')}</option>`)}</select></label>
<label>Image <input type="file" name="upload" accept="image/*" required></label>
<fieldset class="plate-options"><legend>Licence plates</legend>
<label>Regions <input name="regions" placeholder="us-ca, br" maxlength="200"></label>
<label>Mode <select name="mode"><option value="normal">regular</option><option value="fast">fast</option><option value="redaction">redaction</option></select></label>
<label class="check"><input type="checkbox" name="mmc" value="on"> vehicle colour and orientation (mmc)</label>
</fieldset>
<button type="submit">Read</button></form>
${result ?? ''}
<section><h2>Usage this month</h2><table class="list usage"><thead><tr><th>Family</th><th>Calls</th><th>Allowance</th><th></th></tr></thead><tbody>
${usage.map((u) => html`<tr><td>${u.family}</td><td>${u.calls}</td><td>${u.total}</td><td><meter min="0" max="${Math.max(1, u.total)}" value="${u.calls}"></meter></td></tr>`)}
</tbody></table><p class="meta">Counters reset on ${usage[0]?.resetsOn.slice(0, 10) ?? ''} (UTC).</p></section>`,
  });
}
