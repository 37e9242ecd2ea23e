import { ANOMALY_KEYS } from '../../../domain/camera-health.js';
import type { DashboardService } from '../../../services/dashboard/dashboard.service.js';
import { scoresList } from './cameras.view.js';
import { scoresChart } from './chart.js';
import { cameraPath, localImage, statusClass, statusLabel, thumbnailOf, utc } from './format.js';
import { html, type Html } from './html.js';
import { csrfField, layout, type PageContext } from './layout.js';

type CameraPage = Awaited<ReturnType<DashboardService['camera']>>;

/** Notices after a form succeeded (fixed texts: nothing from the request is reflected). */
export const CAMERA_NOTICES: Record<string, string> = {
  reference: 'Reference image updated: the next uploads are compared with it.',
  thresholds: 'Thresholds saved.',
  details: 'Name and notes saved.',
};

const TIMELINE = 50;

function figure(title: string, url: string | null, caption: string): Html {
  const src = localImage(url);
  return html`<figure class="shot"><figcaption>${title}</figcaption>${src ? html`<img src="${src}" alt="${title}">` : html`<div class="nothumb">none</div>`}<small>${caption}</small></figure>`;
}

export function cameraPage(ctx: PageContext, p: CameraPage, notice?: string): Html {
  const { camera, license, thresholds } = p;
  const base = cameraPath(license.id, camera.serial);
  const latest = p.latest;
  const timeline = p.history.slice(0, TIMELINE).map((log) => html`<li class="${statusClass(log.status)}">
  <span class="dot"></span>
  <div class="entry">
    <div><time>${utc(log.createdAt)}</time> <span class="badge ${statusClass(log.status)}">${statusLabel(log.status)}</span>${log.imageId !== null && log.imageId === camera.reference_image_id ? html` <span class="tag">reference</span>` : ''}</div>
    ${Object.keys(log.scores).length ? scoresList(log.scores, log.anomalies) : ''}
    ${log.detail ? html`<div class="detail">${log.detail}</div>` : ''}
  </div>
  ${log.snapshot ? html`<div class="actions"><a href="${localImage(log.snapshot)}" target="_blank" rel="noopener"><img class="mini" src="${thumbnailOf(log.snapshot)}" alt="Snapshot" loading="lazy"></a>
  ${log.imageId === camera.reference_image_id ? '' : html`<form method="post" action="${base}/reference-from-log">${csrfField(ctx)}<input type="hidden" name="log_id" value="${log.id}"><button type="submit" class="small">Use as reference</button></form>`}</div>` : ''}
</li>`);

  const numberInput = (name: string, label: string, value: number, min: string, max: string) =>
    html`<label>${label} <input type="number" name="${name}" value="${value}" step="0.01" min="${min}" max="${max}" required></label>`;

  return layout({
    title: camera.name, active: '/', ctx, notice,
    body: html`<p class="crumbs"><a href="/">Cameras</a> › License <code>${license.code}</code></p>
<h1>${camera.name} <span class="badge ${statusClass(camera.latest_status)}">${statusLabel(camera.latest_status)}</span></h1>
<p class="meta">Serial <code>${camera.serial}</code> · last upload ${utc(camera.last_upload_at)} · ${camera.tags.map((t) => html`<span class="tag">${t}</span> `)}</p>
${camera.notes ? html`<p class="notes">${camera.notes}</p>` : ''}
<div class="pair">
  ${figure('Latest snapshot', latest?.snapshot ?? null, latest ? `${utc(latest.createdAt)} · ${statusLabel(latest.status)}` : 'no upload yet')}
  ${figure('Reference image', p.reference, 'what uploads are compared with')}
</div>
<section><h2>Scores over time</h2>${scoresChart(p.history, thresholds.thresholds)}</section>
<div class="columns">
<section><h2>History</h2>${p.history.length ? html`<ol class="timeline">${timeline}</ol>` : html`<p class="empty">No log yet.</p>`}
${p.history.length > TIMELINE ? html`<p class="meta">Showing the ${TIMELINE} most recent of ${p.history.length} logs.</p>` : ''}</section>
<aside>
<section class="panel"><h2>New reference</h2>
<form method="post" action="${base}/reference" enctype="multipart/form-data">${csrfField(ctx)}
<label>Image <input type="file" name="upload" accept="image/*" required></label>
<button type="submit">Upload reference</button></form>
<p class="meta">Or pick “Use as reference” on a snapshot in the history.</p></section>
<section class="panel"><h2>Thresholds</h2>
<form method="post" action="${base}/thresholds" class="stack">${csrfField(ctx)}
${ANOMALY_KEYS.map((k) => numberInput(`t_${k}`, k, thresholds.thresholds[k], '0.01', '1'))}
${numberInput('review_band', 'Review band', thresholds.reviewBand, '0', '0.99')}
<button type="submit">Save thresholds</button></form></section>
<section class="panel"><h2>Name and notes</h2>
<form method="post" action="${base}/details" class="stack">${csrfField(ctx)}
<label>Name <input type="text" name="name" value="${camera.name}" maxlength="100" required></label>
<label>Notes <textarea name="notes" rows="3" maxlength="2000">${camera.notes}</textarea></label>
<button type="submit">Save</button></form></section>
<section class="panel danger"><h2>Delete camera</h2>
<form method="post" action="${base}/delete" data-confirm="Delete this camera, its logs and its images?">${csrfField(ctx)}
<button type="submit" class="danger">Delete camera</button></form></section>
</aside>
</div>`,
  });
}
