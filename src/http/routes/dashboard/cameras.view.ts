import { ANOMALY_KEYS } from '../../../domain/camera-health.js';
import { STATUS_FILTERS } from '../../../domain/camera-status.js';
import type { CameraCard, DashboardService } from '../../../services/dashboard/dashboard.service.js';
import { html, type Html } from './html.js';
import { cameraPath, score, statusClass, statusLabel, thumbnailPath, utc } from './format.js';
import { layout, type PageContext } from './layout.js';

type Overview = Awaited<ReturnType<DashboardService['overview']>>;

const SHORT: Record<string, string> = { Blur: 'Blur', Obstruction: 'Obstr.', Glare: 'Glare', 'Position change': 'Moved' };

export function scoresList(scores: Record<string, number | undefined>, anomalies: Record<string, number>): Html {
  return html`<dl class="scores">${ANOMALY_KEYS.map((k) => html`<div class="${k in anomalies ? 'over' : ''}" data-key="${k}"><dt title="${k}">${SHORT[k]}</dt><dd>${score(scores[k])}</dd></div>`)}</dl>`;
}

function card(c: CameraCard): Html {
  const thumb = c.thumbnail && thumbnailPath(c.thumbnail);
  return html`<li class="card ${statusClass(c.status)}" data-camera="${c.id}" data-log="${c.logId ?? ''}">
  <a class="thumb" href="${cameraPath(c.licenseId, c.serial)}">${thumb ? html`<img src="${thumb}" alt="Latest snapshot of ${c.name}" loading="lazy">` : html`<span class="nothumb">no image yet</span>`}</a>
  <div class="body">
    <div class="title"><a href="${cameraPath(c.licenseId, c.serial)}">${c.name}</a> <span class="badge ${statusClass(c.status)}" data-role="status">${statusLabel(c.status)}</span></div>
    ${c.name === c.serial ? '' : html`<div class="serial">${c.serial}</div>`}
    ${scoresList(c.scores, c.anomalies)}
    <div class="tags">${c.tags.map((t) => html`<span class="tag">${t}</span>`)}</div>
    <div class="when">Last upload <time data-role="last-upload" datetime="${c.lastUploadAt === null ? '' : new Date(c.lastUploadAt).toISOString()}">${utc(c.lastUploadAt)}</time></div>
  </div>
</li>`;
}

export function camerasPage(ctx: PageContext, data: { overview: Overview; tags: string[]; filter: { status?: string; tag?: string } }): Html {
  const { overview, tags, filter } = data;
  const filters = html`<form method="get" action="/" class="filters" data-autosubmit>
  <label>Status <select name="status"><option value="">all</option>${STATUS_FILTERS.map((s) => html`<option value="${s}"${filter.status === s ? html` selected` : ''}>${statusLabel(s)}</option>`)}</select></label>
  <label>Tag <select name="tag"><option value="">all</option>${tags.map((t) => html`<option value="${t}"${filter.tag === t ? html` selected` : ''}>${t}</option>`)}</select></label>
  <button type="submit">Filter</button>
</form>`;
  const licenses = overview.length === 0
    ? html`<p class="empty">No license yet. An administrator creates one with <code>vigil licenses create</code>.</p>`
    : overview.map(({ license, cameras, matched }) => html`<section class="license">
  <h2>License <code>${license.code}</code> <small>${matched} ${matched === 1 ? 'camera' : 'cameras'} · room for ${license.size} · expires ${utc(license.expiration).slice(0, 10)}</small></h2>
  ${matched > cameras.length ? html`<p class="meta">Showing the first ${cameras.length} of ${matched}: filter by status or tag to see the others.</p>` : ''}
  ${cameras.length === 0 ? html`<p class="empty">No camera matches.</p>` : html`<ul class="grid">${cameras.map(card)}</ul>`}
</section>`);
  const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as Array<[string, string]>).toString();
  return layout({
    title: 'Cameras', active: '/', ctx,
    body: html`<h1>Cameras</h1>${filters}<div data-live="/live/cameras${query ? `?${query}` : ''}">${licenses}</div>`,
  });
}

/** What the cameras page polls: enough to repaint each card without a reload. */
export function liveCameras(overview: Overview) {
  return {
    cameras: overview.flatMap(({ cameras }) => cameras.map((c) => ({
      id: c.id, status: c.status, label: statusLabel(c.status), scores: c.scores, anomalies: c.anomalies, log_id: c.logId,
      last_upload: c.lastUploadAt === null ? null : new Date(c.lastUploadAt).toISOString(), last_upload_text: utc(c.lastUploadAt),
      thumbnail: c.thumbnail && thumbnailPath(c.thumbnail),
    }))),
  };
}
