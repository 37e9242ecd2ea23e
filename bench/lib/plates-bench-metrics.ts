import { countryOf } from '../../src/domain/plates/region-templates.js';
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
  /** Share of the labeled box inside the returned boxes, read or not (what redaction blurs). */
  coverage?: number;
  /** Whether the matching result's region code names the set's country or group (scenes only). */
  regionRight?: boolean;
  /** Whether the matching result's region code names the plate's state (`us-ca`; crops only). */
  stateRight?: boolean;
  /** Each returned plate's score, in the order of `plates`. */
  scores?: number[];
}

/** Score bands of the calibration line, highest first. */
const SCORE_BANDS = [0.9, 0.8, 0.7, 0.6] as const;

/** How often a returned plate is the labeled one, per score band: what a caller's threshold_o
 * buys. Every returned plate counts (a second car's plate in a scene counts as wrong). */
export function calibration(outcomes: readonly SampleOutcome[]): string {
  const bands = SCORE_BANDS.map((min, k) => ({ min, max: k === 0 ? Infinity : SCORE_BANDS[k - 1]!, right: 0, all: 0 }));
  const below = { right: 0, all: 0 };
  for (const o of outcomes) {
    o.scores?.forEach((score, k) => {
      const right = looseKey(o.plates[k]!) === looseKey(o.label) ? 1 : 0;
      const band = bands.find((b) => score >= b.min && score < b.max) ?? below;
      band.all++;
      band.right += right;
    });
  }
  const show = (name: string, b: { right: number; all: number }) => `${name} ${b.right}/${b.all}${b.all ? ` = ${((100 * b.right) / b.all).toFixed(0)}%` : ''}`;
  return `  right by score: ${[...bands.map((b) => show(b.max === Infinity ? `>=${b.min}` : `${b.min}-${b.max}`, b)), show(`<${SCORE_BANDS.at(-1)}`, below)].join(', ')}`;
}

/** The plate sets' regions as region codes: a scenes-eu plate may be of any European country
 * (the EU's member states, the UK, Switzerland and Norway). */
const EUROPE = new Set(['gb', 'ch', 'no', 'at', 'be', 'bg', 'hr', 'cy', 'cz', 'dk', 'ee', 'fi', 'fr', 'de', 'gr', 'hu', 'ie', 'it', 'lv', 'lt', 'lu', 'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'si', 'es', 'se']);

/** Whether `code` (a result's region.code) is right for a plate of the set region `region`. */
export function regionMatches(region: string, code: string): boolean {
  const country = countryOf(code);
  return region === 'eu' ? EUROPE.has(country) : country === region;
}

/** A labeled plate counts as covered when this much of it lies inside the returned boxes. */
export const COVERED = 0.9;

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
  /** Share of matching results whose box has an IoU of 0.5 or more with the labeled box. */
  iouHalf: number;
  /** Share of labeled plates COVERED by the returned boxes (NaN without boxes). */
  covered: number;
  /** Share of read plates whose region code names their set's country or group (NaN without). */
  regionRight: number;
  /** Share of read plates whose region code names their state (NaN without state labels). */
  stateRight: number;
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
  const coverages = outcomes.flatMap((o) => (o.coverage === undefined ? [] : [o.coverage]));
  const covered = coverages.length ? coverages.filter((c) => c >= COVERED).length / coverages.length : NaN;
  const iouHalf = ious.length ? ious.filter((v) => v >= 0.5).length / ious.length : NaN;
  const regions = outcomes.flatMap((o) => (o.regionRight === undefined ? [] : [o.regionRight]));
  const regionRight = regions.length ? regions.filter(Boolean).length / regions.length : NaN;
  const states = outcomes.flatMap((o) => (o.stateRight === undefined ? [] : [o.stateRight]));
  const stateRight = states.length ? states.filter(Boolean).length / states.length : NaN;
  return { n: outcomes.length, exact: exact / n, loose: loose / n, top1: top1 / n, falsePerImage: falses / n, medianMs: median(ms), p95Ms: percentile(ms, 95), medianCpuMs: median(cpu), medianIou: median(ious), iouHalf, covered, regionRight, stateRight };
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`.padStart(6);

export function formatRow(name: string, s: SetSummary): string {
  return `${name.padEnd(28)} n=${String(s.n).padStart(3)}  exact ${pct(s.exact)}  O0/I1 ${pct(s.loose)}  top1 ${pct(s.top1)}  false/img ${s.falsePerImage.toFixed(2).padStart(5)}  median ${s.medianMs.toFixed(0).padStart(4)} ms  p95 ${s.p95Ms.toFixed(0).padStart(4)} ms${Number.isNaN(s.medianCpuMs) ? '' : `  cpu ${s.medianCpuMs.toFixed(0).padStart(4)} ms`}${Number.isNaN(s.medianIou) ? '' : `  box IoU ${s.medianIou.toFixed(2)} (>=0.5 ${pct(s.iouHalf)})`}${Number.isNaN(s.covered) ? '' : `  covered ${pct(s.covered)}`}${Number.isNaN(s.regionRight) ? '' : `  region ${pct(s.regionRight)}`}${Number.isNaN(s.stateRight) ? '' : `  state ${pct(s.stateRight)}`}`;
}
