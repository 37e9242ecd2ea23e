/**
 * Digit-row logic for odometers, pure: which line of a dashboard photo is the total distance,
 * and which of its pieces belong to the reading.
 *
 * An odometer is a row of same-height digit glyphs (a drum or an LCD), usually the longest
 * number on the dashboard; the gauge scale around it is short round numbers (20, 40 ... 140),
 * often in the same row as the drum and sometimes merged into its text box.
 */
import { odometerLabel, odometerReading } from '../../../domain/text/odometer.js';
import type { CharSpan } from '../ctc-decode.js';
import { medianOf, spanCentres, stepsBetween } from './char-spacing.js';

export interface RowPiece {
  text: string;
  confidence: number;
  /** Per character of text, when the recogniser gave them. */
  charConfidences?: number[];
  /** Per character of text, where it was seen, in image x. */
  charSpans?: CharSpan[];
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface OdometerCandidate {
  value: string;
  confidence: number;
  piece: RowPiece;
  score: number;
}

const centreY = (p: RowPiece) => p.y + p.h / 2;
const sameRow = (a: RowPiece, b: RowPiece) => Math.abs(centreY(a) - centreY(b)) < Math.max(a.h, b.h) * 0.5;

/** The label words near a number: on its row within a few glyph heights, or just above/below. */
function nearbyLabels(p: RowPiece, all: readonly RowPiece[]): Set<string> {
  const out = new Set<string>();
  for (const q of all) {
    if (q === p) continue;
    const label = odometerLabel(q.text);
    if (!label || label === 'other') continue;
    const gapX = Math.max(q.x - (p.x + p.w), p.x - (q.x + q.w));
    const gapY = Math.max(q.y - (p.y + p.h), p.y - (q.y + q.h));
    const beside = sameRow(p, q) && gapX < p.h * 2.5;
    const stacked = gapY < p.h * 1.2 && gapX < p.h;
    if (beside || stacked) out.add(label);
  }
  return out;
}

/** Round numbers of two or three digits are gauge scale labels, not distances. */
export const isScaleNumber = (digits: string) => digits.length <= 3 && /^[1-9]\d?0$/.test(digits);

/** Speedometer dials end below 300 km/h and label every 10 or 20 (a detector may skip one). */
const MAX_SCALE_VALUE = 300;
const MAX_SCALE_STEP = 40;

/** Neighbouring scale labels the detector boxed together: "4050", "100120", "30405080" are
 * round numbers rising by small steps left to right, as on a speedometer arc. */
export function isScaleRun(digits: string): boolean {
  const parse = (rest: string, prev: number): boolean => {
    if (rest === '') return true;
    for (const len of [2, 3]) {
      const head = rest.slice(0, len);
      const n = Number(head);
      const rises = prev === 0 || (n > prev && n - prev <= MAX_SCALE_STEP);
      if (head.length === len && isScaleNumber(head) && n <= MAX_SCALE_VALUE && rises && parse(rest.slice(len), n)) return true;
    }
    return false;
  };
  return digits.length >= 4 && parse(digits, 0);
}

/**
 * Digit pieces the detector split one row into (a drum window with wide gaps between wheels:
 * "009" and "39" for 00939), joined left to right: same row, about the same glyph height, a gap
 * smaller than a glyph. Scale labels (round numbers) never join: beside the drum they are as
 * tall as its digits on some dials.
 */
export function mergeDigitRuns(pieces: readonly RowPiece[]): RowPiece[] {
  const isDigits = (p: RowPiece) => /^[0-9OD]+$/i.test(p.text.replace(/\s/g, '')) && /\d/.test(p.text) && !isScaleNumber(p.text.trim());
  const used = new Set<RowPiece>();
  const out: RowPiece[] = [];
  const byX = [...pieces].sort((a, b) => a.x - b.x);
  for (const start of byX) {
    if (used.has(start)) continue;
    used.add(start);
    let run = start;
    if (isDigits(start)) {
      for (;;) {
        const next = byX.find((q) => !used.has(q) && isDigits(q) && sameRow(run, q) && q.h > run.h * 0.75 && q.h < run.h * 1.33 && q.x + q.w / 2 > run.x + run.w && q.x - (run.x + run.w) < run.h * 0.6);
        if (!next) break;
        used.add(next);
        const x1 = Math.max(run.x + run.w, next.x + next.w);
        const y = Math.min(run.y, next.y);
        const y1 = Math.max(run.y + run.h, next.y + next.h);
        const charConfidences = run.charConfidences && next.charConfidences ? [...run.charConfidences, ...next.charConfidences] : undefined;
        const charSpans = run.charSpans && next.charSpans ? [...run.charSpans, ...next.charSpans] : undefined;
        run = { text: run.text + next.text, confidence: (run.confidence + next.confidence) / 2, charConfidences, charSpans, x: run.x, y, w: x1 - run.x, h: y1 - y };
      }
    }
    out.push(run);
  }
  return out;
}

/** A dial label's digits are smaller than the drum's: their centres closer than this share of
 * the row's median step. */
const LABEL_GLYPH_STEP = 0.75;

/**
 * Where the dial's scale labels the detector boxed with the drum on the right begin, in a digit
 * row longer than any odometer (9 digits and more): round numbers cut from the end while the row
 * is still too long ("100094870": the drum, then the dial's 70), then one more whose two small
 * digits sit closer together than the drum's ("0072370120": 120, then 70). Label starts from
 * the right; empty when the row is not too long or no label ends it.
 */
export function trailingScaleLabels(text: string, spans?: readonly CharSpan[]): number[] {
  if (!/^\d{9,}$/.test(text)) return [];
  const centres = spans?.length === text.length ? spanCentres(spans) : undefined;
  const median = centres ? medianOf(stepsBetween(centres)) : 0;
  const smallGlyphs = (end: number) => centres !== undefined && centres[end - 1]! - centres[end - 2]! < LABEL_GLYPH_STEP * median;
  const labelAt = (end: number) => [3, 2].find((n) => isScaleNumber(text.slice(end - n, end)) && Number(text.slice(end - n, end)) <= MAX_SCALE_VALUE);
  const starts: number[] = [];
  let keep = text.length;
  for (;;) {
    const n = labelAt(keep);
    if (n === undefined || keep - n < 3 || !(keep > 8 || (n === 2 && smallGlyphs(keep)))) break;
    keep -= n;
    starts.push(keep);
  }
  return keep <= 8 ? starts : [];
}

/**
 * The piece cut before each of the characters `at`, halfway between that character and the one
 * before it; undefined without the characters' places.
 */
export function splitPiece(p: RowPiece, at: readonly number[]): RowPiece[] | undefined {
  const spans = p.charSpans;
  if (!spans || spans.length !== p.text.length) return undefined;
  const ks = [...new Set(at)].sort((a, b) => a - b);
  if (ks.some((k) => k <= 0 || k >= p.text.length)) return undefined;
  const xs = [p.x, ...ks.map((k) => (spans[k - 1]!.x1 + spans[k]!.x0) / 2), p.x + p.w];
  if (xs.some((x, i) => i > 0 && x <= xs[i - 1]!)) return undefined;
  const bounds = [0, ...ks, p.text.length];
  return bounds.slice(1).map((to, i) => {
    const from = bounds[i]!;
    const charConfidences = p.charConfidences?.length === p.text.length ? p.charConfidences.slice(from, to) : undefined;
    const confidence = charConfidences ? charConfidences.reduce((a, b) => a + b, 0) / charConfidences.length : p.confidence;
    return { text: p.text.slice(from, to), confidence, charConfidences, charSpans: spans.slice(from, to), x: xs[i]!, y: p.y, w: xs[i + 1]! - xs[i]!, h: p.h };
  });
}

/** Pieces too long for an odometer because their box took in the dial's scale labels on the
 * right, split from those labels (each label its own piece, beside the drum). */
export function withScaleLabelsApart(pieces: readonly RowPiece[]): RowPiece[] {
  return pieces.flatMap((p) => {
    const starts = trailingScaleLabels(p.text, p.charSpans);
    return (starts.length > 0 && splitPiece(p, starts)) || [p];
  });
}

/**
 * Candidates ranked best first. The weight favours tall glyphs (the odometer is printed larger
 * than trip and scale text, and the detector sees it as one long box), five to seven digits,
 * a confident reading, an ODO/TOTAL label or a unit beside it; a TRIP label, a round scale
 * number or a run of them rules a line out.
 */
export function rankOdometerLines(pieces: readonly RowPiece[]): OdometerCandidate[] {
  const out: OdometerCandidate[] = [];
  for (const p of pieces) {
    const value = odometerReading(p.text);
    if (!value) continue;
    const labels = nearbyLabels(p, pieces);
    if (labels.has('trip') && !labels.has('odometer')) continue;
    if (isScaleNumber(value) || isScaleRun(value)) continue;
    const n = value.length;
    const lengthFactor = n >= 5 && n <= 7 ? 1 : n === 4 || n === 8 ? 0.6 : 0.35;
    const labelFactor = labels.has('odometer') ? 1.6 : labels.has('unit') ? 1.3 : 1;
    out.push({ value, confidence: p.confidence, piece: p, score: p.h * lengthFactor * labelFactor * (0.5 + p.confidence / 2) });
  }
  return out.sort((a, b) => b.score - a.score);
}
