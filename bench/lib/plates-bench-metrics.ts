import { median, percentile } from './stats.js';

/** Labels write O for 0 (and the reverse) and I for 1: this key treats them as equal. */
export const looseKey = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/O/g, '0').replace(/I/g, '1');
export const exactKey = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

export interface SampleOutcome {
  label: string;
  /** Plates returned, best first. */
  plates: string[];
  ms: number;
  /** CPU time of the process for this image (all threads), ms: steadier than wall time when
   * other work shares the cores. */
  cpuMs?: number;
  /** IoU of the labeled box with the box of the matching result, when both exist. */
  iou?: number;
}

export interface BoxXyxy { xmin: number; ymin: number; xmax: number; ymax: number }

export function iou(a: BoxXyxy, b: BoxXyxy): number {
  const w = Math.min(a.xmax, b.xmax) - Math.max(a.xmin, b.xmin);
  const h = Math.min(a.ymax, b.ymax) - Math.max(a.ymin, b.ymin);
  if (w <= 0 || h <= 0) return 0;
  const area = (r: BoxXyxy) => (r.xmax - r.xmin) * (r.ymax - r.ymin);
  return (w * h) / (area(a) + area(b) - w * h);
}

export interface SetSummary {
  n: number;
  exact: number;
  loose: number;
  top1: number;
  falsePerImage: number;
  medianMs: number;
  p95Ms: number;
  medianCpuMs: number;
  /** Median IoU of the matching result's box with the labeled box (NaN without boxes). */
  medianIou: number;
}

export function summarise(outcomes: readonly SampleOutcome[]): SetSummary {
  let exact = 0, loose = 0, top1 = 0, falses = 0;
  for (const o of outcomes) {
    const e = exactKey(o.label);
    const l = looseKey(o.label);
    if (o.plates.some((p) => exactKey(p) === e)) exact++;
    if (o.plates.some((p) => looseKey(p) === l)) loose++;
    if (o.plates[0] !== undefined && looseKey(o.plates[0]) === l) top1++;
    falses += o.plates.filter((p) => looseKey(p) !== l).length;
  }
  const n = outcomes.length || 1;
  const ms = outcomes.map((o) => o.ms);
  const cpu = outcomes.flatMap((o) => (o.cpuMs === undefined ? [] : [o.cpuMs]));
  const ious = outcomes.flatMap((o) => (o.iou === undefined ? [] : [o.iou]));
  return { n: outcomes.length, exact: exact / n, loose: loose / n, top1: top1 / n, falsePerImage: falses / n, medianMs: median(ms), p95Ms: percentile(ms, 95), medianCpuMs: median(cpu), medianIou: median(ious) };
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`.padStart(6);

export function formatRow(name: string, s: SetSummary): string {
  return `${name.padEnd(28)} n=${String(s.n).padStart(3)}  exact ${pct(s.exact)}  O0/I1 ${pct(s.loose)}  top1 ${pct(s.top1)}  false/img ${s.falsePerImage.toFixed(2).padStart(5)}  median ${s.medianMs.toFixed(0).padStart(4)} ms  p95 ${s.p95Ms.toFixed(0).padStart(4)} ms${Number.isNaN(s.medianCpuMs) ? '' : `  cpu ${s.medianCpuMs.toFixed(0).padStart(4)} ms`}${Number.isNaN(s.medianIou) ? '' : `  box IoU ${s.medianIou.toFixed(2)}`}`;
}
