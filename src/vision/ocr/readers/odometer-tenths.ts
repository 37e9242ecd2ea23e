/**
 * The tenths wheel of a drum odometer, read again against the drum's own digits. The last wheel
 * is often another colour, inverted or half turned, and the recogniser reads it unsurely; the
 * other wheels of the same drum share its font and size, so the digits it read surely are
 * templates the uncertain cell can be matched against: each cell is reduced to its strokes
 * (either polarity: a white-on-black drum often ends in a black-on-white tenths wheel) and
 * compared by normalised cross-correlation. A wheel caught half turned is also read again with
 * its view shifted up and down (see ROLL_SHIFTS).
 */
import type { RawImage } from '../../image/decode.js';
import type { CharSpan } from '../ctc-decode.js';
import { medianOf, spanCentres, stepsBetween } from './char-spacing.js';

export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A character cell in image pixels. */
export interface Cell {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Every cell is compared at this size (a drum digit is about twice as tall as wide). */
const PATCH_W = 12;
const PATCH_H = 24;

/** The cell sampled to PATCH_W x PATCH_H, zero mean and unit norm (so a dot product is the
 * normalised cross-correlation); undefined for a flat cell, which carries no glyph. */
function cellPatch(img: GrayImage, cell: Cell): Float32Array | undefined {
  const out = new Float32Array(PATCH_W * PATCH_H);
  const at = (x: number, y: number) => img.data[Math.min(img.height - 1, Math.max(0, y)) * img.width + Math.min(img.width - 1, Math.max(0, x))]!;
  for (let j = 0; j < PATCH_H; j++) {
    const sy = cell.y + ((j + 0.5) * cell.h) / PATCH_H - 0.5;
    const y0 = Math.floor(sy);
    const fy = sy - y0;
    for (let i = 0; i < PATCH_W; i++) {
      const sx = cell.x + ((i + 0.5) * cell.w) / PATCH_W - 0.5;
      const x0 = Math.floor(sx);
      const fx = sx - x0;
      const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      out[j * PATCH_W + i] = top * (1 - fy) + bottom * fy;
    }
  }
  return normalised(out, 1e-3 * out.length);
}

/** `v` shifted to zero mean and scaled to unit norm, in place (a dot product of two is then
 * their normalised cross-correlation); undefined when its norm is below `minNorm`. */
function normalised(v: Float32Array, minNorm: number): Float32Array | undefined {
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  let norm = 0;
  for (let k = 0; k < v.length; k++) {
    v[k] = v[k]! - mean;
    norm += v[k]! * v[k]!;
  }
  norm = Math.sqrt(norm);
  if (norm < minNorm) return undefined;
  for (let k = 0; k < v.length; k++) v[k] = v[k]! / norm;
  return v;
}

/** Otsu's threshold of a patch's values. */
function otsu(v: Float32Array): number {
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  let best = (lo + hi) / 2;
  let bestVar = -1;
  for (let k = 1; k < 32; k++) {
    const t = lo + ((hi - lo) * k) / 32;
    const above = v.filter((x) => x > t);
    const below = v.filter((x) => x <= t);
    if (above.length === 0 || below.length === 0) continue;
    const mean = (a: Float32Array) => a.reduce((s, x) => s + x, 0) / a.length;
    const between = above.length * below.length * (mean(above) - mean(below)) ** 2;
    if (between > bestVar) {
      bestVar = between;
      best = t;
    }
  }
  return best;
}

/** The glyph's strokes as a 0/1 patch (zero mean, unit norm). Strokes are the minority class;
 * a cell mostly bright is a light wheel or label in a dark drum, whose strokes are its dark
 * pixels inside the bright region (the dark drum around it is not ink). */
export function glyphPatch(img: GrayImage, cell: Cell): Float32Array | undefined {
  const g = cellPatch(img, cell);
  if (!g) return undefined;
  const t = otsu(g);
  const bright = g.map((x) => (x > t ? 1 : 0));
  const share = bright.reduce((a, b) => a + b, 0) / bright.length;
  const out = new Float32Array(g.length);
  if (share < 0.5) {
    out.set(bright);
  } else {
    const rows = [...Array(PATCH_H).keys()].filter((j) => bright.slice(j * PATCH_W, (j + 1) * PATCH_W).reduce((a, b) => a + b, 0) >= PATCH_W * 0.4);
    const cols = [...Array(PATCH_W).keys()].filter((i) => rows.filter((j) => bright[j * PATCH_W + i]).length >= rows.length * 0.4);
    const [r0, r1, c0, c1] = [Math.min(...rows), Math.max(...rows), Math.min(...cols), Math.max(...cols)];
    for (let j = r0; j <= r1; j++) for (let i = c0; i <= c1; i++) out[j * PATCH_W + i] = bright[j * PATCH_W + i] ? 0 : 1;
  }
  return normalised(out, 1e-3);
}

const correlation = (a: Float32Array, b: Float32Array) => a.reduce((s, v, k) => s + v * b[k]!, 0);

/**
 * The character cells of a read: each centred where the recogniser saw the character, one drum
 * pitch wide (CTC spans are narrower than the glyph), the crop's full height. `origin` is where
 * the crop sits in the image.
 */
export function drumCells(spans: readonly CharSpan[], origin: Cell): Cell[] {
  const centres = spanCentres(spans);
  if (centres.length < 2) return [];
  const pitch = medianOf(stepsBetween(centres));
  return centres.map((c) => ({ x: origin.x + c - pitch / 2, y: origin.y, w: pitch, h: origin.h }));
}

/** How far a step between characters may stray from the median pitch on a drum. */
const PITCH_TOLERANCE = 0.3;

/** Drum wheels are evenly spaced; an LCD's narrow 1s are not, and one pitch cannot cut its cells. */
export function evenlySpaced(spans: readonly CharSpan[]): boolean {
  const steps = stepsBetween(spanCentres(spans));
  const pitch = medianOf(steps);
  return steps.length >= 2 && steps.every((s) => Math.abs(s - pitch) <= pitch * PITCH_TOLERANCE);
}

export interface DigitTemplate {
  digit: string;
  patch: Float32Array;
}

export interface CellMatch {
  digit: string;
  score: number;
  /** The best score of any other digit. */
  runnerUp: number;
}

/** Small shifts of the cell (fractions of its size): the drum pitch is a median and the wheels
 * sit a little higher or lower than each other. */
const JITTER = [-0.12, 0, 0.12];

/** The digit whose templates the cell's strokes match best, over small shifts of the cell. */
export function matchCell(img: GrayImage, cell: Cell, templates: readonly DigitTemplate[]): CellMatch | undefined {
  const byDigit = new Map<string, number>();
  for (const dy of JITTER) {
    for (const dx of JITTER) {
      const p = glyphPatch(img, { ...cell, x: cell.x + dx * cell.w, y: cell.y + dy * cell.h });
      if (!p) continue;
      for (const t of templates) byDigit.set(t.digit, Math.max(byDigit.get(t.digit) ?? -1, correlation(p, t.patch)));
    }
  }
  const ranked = [...byDigit].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return undefined;
  return { digit: ranked[0]![0], score: ranked[0]![1], runnerUp: ranked[1]?.[1] ?? -1 };
}

/** The recogniser's own reading of the cell stands when it is at least this sure. */
const UNSURE = 0.6;
/** Drum digits read at least this surely are templates. */
const SURE_TEMPLATE = 0.9;
/** A match must be this good, and this much better than any other digit, to overrule it. */
const MIN_SCORE = 0.4;
const MIN_MARGIN = 0.1;

export interface CellRead {
  text: string;
  confidences: readonly number[];
  spans: readonly CharSpan[];
}

/** A drum read (four or more evenly spaced characters) whose last digit the recogniser was unsure of. */
export function unsureDrumTenths(read: CellRead): boolean {
  const n = read.text.length;
  if (n < 4 || read.spans.length !== n || read.confidences.length !== n) return false;
  return read.confidences[n - 1]! < UNSURE && evenlySpaced(read.spans);
}

/**
 * The last digit of a read, matched against the read's sure digits when the recogniser was
 * unsure of it; undefined when it stands (sure enough, not a drum, no templates, or no clear
 * match). `origin` is where the read crop sits in the image (its width unused); the image is
 * asked for only when a match is tried.
 */
export function rereadLastCell(image: () => GrayImage, read: CellRead, origin: Cell): string | undefined {
  if (!unsureDrumTenths(read)) return undefined;
  const n = read.text.length;
  const cells = drumCells(read.spans, origin);
  const img = image();
  const templates: DigitTemplate[] = [];
  for (let i = 0; i < n - 1; i++) {
    if (read.confidences[i]! < SURE_TEMPLATE) continue;
    const patch = glyphPatch(img, cells[i]!);
    if (patch) templates.push({ digit: read.text[i]!, patch });
  }
  const m = matchCell(img, cells[n - 1]!, templates);
  if (!m || m.score < MIN_SCORE || m.score - m.runnerUp < MIN_MARGIN || m.digit === read.text[n - 1]) return undefined;
  return m.digit;
}

/**
 * Vertical offsets, in row heights, at which a half-turned tenths wheel is read again. The tenths
 * wheel turns all the time, so its digit often stands part way out of the window, where the
 * recogniser reads it unsurely or as a neighbour; a view shifted by about the amount it is out
 * brings it back to the middle of the crop.
 */
export const ROLL_SHIFTS = [-0.35, -0.2, 0.2, 0.35] as const;

/**
 * The line read for one shift: the drum cells before the tenths as they are (context, so the
 * recogniser reads a row of drum digits rather than one lone glyph), then the tenths cell
 * sampled `shift` row heights lower (negative: higher). Pixels past the image repeat its edge.
 */
export function shiftedTenthsLine(image: RawImage, context: Cell, cell: Cell, shift: number, invert = false): RawImage {
  const ch = image.channels;
  const h = Math.max(1, Math.round(cell.h));
  const cw = Math.max(1, Math.round(context.w));
  const tw = Math.max(1, Math.round(cell.w));
  const width = cw + tw;
  const out = Buffer.alloc(width * h * ch);
  const clampX = (x: number) => Math.min(image.width - 1, Math.max(0, Math.round(x)));
  const clampY = (y: number) => Math.min(image.height - 1, Math.max(0, Math.round(y)));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < width; x++) {
      const [sx, sy] = x < cw ? [context.x + x, context.y + y] : [cell.x + x - cw, cell.y + y + shift * cell.h];
      const from = (clampY(sy) * image.width + clampX(sx)) * ch;
      for (let c = 0; c < ch; c++) out[(y * width + x) * ch + c] = invert && x >= cw ? 255 - image.data[from + c]! : image.data[from + c]!;
    }
  }
  return { data: out, width, height: h, channels: ch };
}

/** A shifted read counts only when the recogniser is this sure of the tenths digit. */
const SURE_SHIFTED = 0.9;

/** The tenths digit one shifted line read (the surest character in the tenths cell, which starts
 * at `cellX` in the line), with how sure it was. */
export function tenthsOfShiftedRead(read: { text: string; confidences: readonly number[]; spans: readonly CharSpan[] }, cellX: number): { digit: string; confidence: number } | undefined {
  let best: { digit: string; confidence: number } | undefined;
  [...read.text].forEach((c, i) => {
    const s = read.spans[i];
    if (!s || (s.x0 + s.x1) / 2 < cellX || !/\d/.test(c)) return;
    const confidence = read.confidences[i] ?? 0;
    if (!best || confidence > best.confidence) best = { digit: c, confidence };
  });
  return best;
}

/** The tenths digit the shifted reads agree on: every sure read says it (at least one). Sure
 * reads of different digits (the two halves of a turning wheel) settle nothing. */
export function rolledTenths(reads: ReadonlyArray<{ digit: string; confidence: number } | undefined>): string | undefined {
  const sure = new Set(reads.filter((r) => r && r.confidence >= SURE_SHIFTED).map((r) => r!.digit));
  return sure.size === 1 ? [...sure][0] : undefined;
}

/**
 * How far, in row heights, a view of a half-turned wheel is moved to centre one of the two digits
 * it shows: the digit leaving the window (its lower part at the top) stands about half a row
 * above the window's middle, the next one (its upper part at the bottom) half a row below.
 */
export const HALF_TURN = 0.5;

/**
 * The digit a half-turned wheel stands at, from the recogniser's reads of its two halves and
 * its whole window: the digit leaving the window, the lower of the two it shows (the distance
 * has not yet reached the next). Drums roll in order, the next digit coming up from below, so
 * the reads must agree with that order: the upper half read as surely as a reading that stands
 * (UNSURE) as d, and the whole window read as d or d + 1 (it takes either of the parts for the
 * digit), or the lower half read as surely as d + 1. A lower half read surely as any other
 * digit, or an unsure upper half, settles nothing (undefined).
 */
export function halfTurnedTenths(upper: { digit: string; confidence: number } | undefined, lower: { digit: string; confidence: number } | undefined, whole: string): string | undefined {
  if (!upper || upper.confidence < UNSURE) return undefined;
  const d = upper.digit;
  const next = String((Number(d) + 1) % 10);
  const lowerSays = lower && lower.confidence >= UNSURE ? lower.digit : undefined;
  if (lowerSays !== undefined && lowerSays !== d && lowerSays !== next) return undefined;
  return whole === d || whole === next || lowerSays === next ? d : undefined;
}
