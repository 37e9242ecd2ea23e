import { ANOMALY_KEYS } from '../../../domain/camera-health.js';
import { html, type Html } from './html.js';

export const SERIES_COLOURS: Record<string, string> = { Blur: '#2563eb', Obstruction: '#d97706', Glare: '#ca8a04', 'Position change': '#9333ea' };

interface Point {
  createdAt: number;
  status: string;
  scores: Record<string, number | undefined>;
}

const W = 960;
const H = 260;
const PAD = { left: 40, right: 14, top: 10, bottom: 40 };

/** The four scores over time as an inline SVG (no script, no library): one line per score,
 * dashed lines at the camera's thresholds, red dots on anomaly logs. */
export function scoresChart(logs: Point[], thresholds: Record<string, number>): Html {
  const points = logs.filter((l) => Object.keys(l.scores).length > 0).sort((a, b) => a.createdAt - b.createdAt);
  if (points.length === 0) return html`<p class="empty">No analysed upload yet: the chart appears after the first scores.</p>`;
  const t0 = points[0]!.createdAt;
  const t1 = points[points.length - 1]!.createdAt;
  const x = (t: number) => PAD.left + (t1 === t0 ? (W - PAD.left - PAD.right) / 2 : ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right));
  const y = (v: number) => PAD.top + (1 - Math.max(0, Math.min(1, v))) * (H - PAD.top - PAD.bottom);
  const f = (n: number) => n.toFixed(1);
  const grid = [0, 0.25, 0.5, 0.75, 1].map((v) => html`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(v))}" y2="${f(y(v))}" class="grid"/><text x="${PAD.left - 6}" y="${f(y(v) + 4)}" text-anchor="end">${v.toFixed(2)}</text>`);
  const levels = [...new Set(ANOMALY_KEYS.map((k) => thresholds[k]).filter((v): v is number => v !== undefined))];
  const limits = levels.map((v) => html`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(v))}" y2="${f(y(v))}" class="limit"><title>threshold ${v}</title></line>`);
  const lines = ANOMALY_KEYS.map((k) => {
    const pts = points.filter((p) => p.scores[k] !== undefined).map((p) => `${f(x(p.createdAt))},${f(y(p.scores[k]!))}`);
    if (pts.length === 0) return '';
    return html`<polyline points="${pts.join(' ')}" fill="none" stroke="${SERIES_COLOURS[k]}" stroke-width="2" data-series="${k}"/>${pts.length === 1 ? html`<circle cx="${pts[0]!.split(',')[0]}" cy="${pts[0]!.split(',')[1]}" r="3" fill="${SERIES_COLOURS[k]}"/>` : ''}`;
  });
  const marks = points.filter((p) => p.status === 'anomaly').map((p) => html`<circle cx="${f(x(p.createdAt))}" cy="${f(H - PAD.bottom + 12)}" r="4" class="anomaly-mark"><title>anomaly ${new Date(p.createdAt).toISOString()}</title></circle>`);
  const day = (t: number) => new Date(t).toISOString().slice(0, 16).replace('T', ' ');
  return html`<figure class="chart">
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Anomaly scores over time">
${grid}${limits}${lines}${marks}
<text x="${PAD.left}" y="${H - 4}">${day(t0)}</text>${t1 !== t0 ? html`<text x="${W - PAD.right}" y="${H - 4}" text-anchor="end">${day(t1)}</text>` : ''}
</svg>
<figcaption class="legend">${ANOMALY_KEYS.map((k) => html`<span><i class="swatch swatch-${k.replace(' ', '-').toLowerCase()}"></i>${k}</span>`)}<span><i class="swatch swatch-limit"></i>threshold</span><span><i class="swatch swatch-anomaly"></i>anomaly</span></figcaption>
</figure>`;
}
