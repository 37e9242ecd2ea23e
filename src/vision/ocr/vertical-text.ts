import type { RawImage } from '../image/decode.js';
import type { PixelBox } from '../image/ink-colour.js';
import { cropRect, resizeBilinear, toGray } from '../image/warp.js';
import { type Component, componentBoxes } from '../image/components.js';
import { columnBox } from './column-box.js';
import { type Quad, quadBounds, quadSize } from './geometry.js';

/** Otsu threshold of grey values. */
export function otsuThreshold(gray: Uint8Array): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < gray.length; i++) hist[gray[i]!]!++;
  return otsuOfHistogram(hist, gray.length);
}

/** Otsu threshold of a 256-bin histogram of `total` grey values. */
export function otsuOfHistogram(hist: Float64Array, total: number): number {
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i]!;
  let sumB = 0, wB = 0, best = 0, threshold = 127;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** A gap between ink rows at most this part of the column's width is inside a character: a
 * stencil font's bridges, a stroke worn through. Characters stacked one under another stand
 * further apart than that. */
const STENCIL_BRIDGE = 0.1;
/** The tallest a character stands in a column, in column widths. */
const TALLEST_GLYPH = 1.5;

/** Ink pixels (1) of an upright column of characters: Otsu's threshold (of the grey values in
 * `thresholdFrom` where given, else of all), the ink being the class rarer along the border (the
 * background surrounds the characters). */
export function inkMask(img: RawImage, thresholdFrom?: PixelBox): Uint8Array {
  const gray = toGray(img);
  const { width: w, height: h } = img;
  const r = thresholdFrom;
  const t = otsuThreshold(r ? toGray(cropRect(img, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0)) : gray);
  let borderDark = 0, borderCount = 0;
  for (let x = 0; x < w; x++) {
    borderDark += (gray[x]! <= t ? 1 : 0) + (gray[(h - 1) * w + x]! <= t ? 1 : 0);
    borderCount += 2;
  }
  for (let y = 0; y < h; y++) {
    borderDark += (gray[y * w]! <= t ? 1 : 0) + (gray[y * w + w - 1]! <= t ? 1 : 0);
    borderCount += 2;
  }
  const inkIsDark = borderDark / borderCount < 0.5;
  return gray.map((g) => ((g <= t) === inkIsDark ? 1 : 0));
}

/** Row spans holding ink in an upright column of characters stacked top to bottom. */
export function characterRows(img: RawImage): Array<[number, number]> {
  return rowsOfInk(inkMask(img), img.width, img.height);
}

/** Row spans of ink (`ink`: a w x h mask) in a column of characters, as characterRows;
 * `stencilBridge`: the widest gap inside a character, in column widths. */
export function rowsOfInk(ink: Uint8Array, w: number, h: number, stencilBridge = STENCIL_BRIDGE): Array<[number, number]> {
  // Only the middle 80% of columns: box edges often touch neighbouring paint.
  const xa = Math.floor(w * 0.1);
  const xb = Math.ceil(w * 0.9);
  const rowInk: number[] = [];
  for (let y = 0; y < h; y++) {
    let n = 0;
    for (let x = xa; x < xb; x++) n += ink[y * w + x]!;
    rowInk.push(n);
  }
  const minInk = Math.max(1, (xb - xa) * 0.04);
  const spans: Array<[number, number]> = [];
  let start = -1;
  for (let y = 0; y <= h; y++) {
    const on = y < h && rowInk[y]! >= minInk;
    if (on && start < 0) start = y;
    if (!on && start >= 0) {
      spans.push([start, y]);
      start = -1;
    }
  }
  // Merge spans split by a thin gap (a broken stroke, a stencil's bridges: small beside the
  // column's width, which is about a character's), so long as the result is no taller than a
  // character can be; drop specks.
  const bridge = Math.max(1, h * 0.01, w * stencilBridge);
  const merged: Array<[number, number]> = [];
  for (const s of spans) {
    const last = merged.at(-1);
    if (last && s[0] - last[1] <= bridge && s[1] - last[0] <= w * TALLEST_GLYPH) last[1] = s[1];
    else merged.push([s[0], s[1]]);
  }
  const heights = merged.map(([a, b]) => b - a).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  return merged.filter(([a, b]) => b - a >= median * 0.3);
}

/** A thin connected stroke taller than this many character heights is no character: a panel's
 * seam or a bar beside the column, which the recogniser reads as a 1 at the stack's end. */
const STRAY_STROKE = 1.2;
/** Width over height of such a stroke at most (a thin line, tilted a little). */
const STRAY_STROKE_WIDTH = 0.35;
/** Only strokes wholly within this part of the crop's width from either side: a faint seam
 * across the column is ink only in pieces, and painting the pieces over leaves the rest to read
 * as 1s. */
const STRAY_SIDE = 0.25;

/** Ink regions (4-connected) too thin and tall to be a character, at the crop's sides, taller
 * than any character of the column, measured on the column without its thin regions (a 1
 * stands no taller than the other characters; a stencil font's pieces are joined into
 * characters by rowsOfInk); `regionOf` gets each ink pixel's region. None where only thin
 * regions are. */
function strayStrokes(ink: Uint8Array, w: number, h: number, regionOf: Int32Array): Set<number> {
  const regions = componentBoxes(ink, w, h, 4, regionOf);
  const thin = new Set<number>();
  regions.forEach((r, k) => {
    if (r.x1 - r.x0 <= STRAY_STROKE_WIDTH * (r.y1 - r.y0)) thin.add(k);
  });
  if (thin.size === 0) return thin;
  const rest = Uint8Array.from(ink, (v, i) => (v && !thin.has(regionOf[i]!) ? 1 : 0));
  const rows = rowsOfInk(rest, w, h);
  if (rows.length === 0) return new Set();
  const charH = Math.max(...rows.map(([a, b]) => b - a));
  const atSide = (r: Component) => r.x1 - 1 < STRAY_SIDE * w || r.x0 >= (1 - STRAY_SIDE) * w;
  return new Set([...thin].filter((k) => regions[k]!.y1 - regions[k]!.y0 > STRAY_STROKE * charH && atSide(regions[k]!)));
}

/** The picture with its stray strokes (strayStrokes) painted `background`, and its ink mask. */
function paintOverStrays(img: RawImage, background: readonly number[]): { img: RawImage; ink: Uint8Array } {
  const ink = inkMask(img);
  const regionOf = new Int32Array(ink.length);
  const strays = strayStrokes(ink, img.width, img.height, regionOf);
  if (strays.size === 0) return { img, ink };
  const data = Buffer.from(img.data);
  for (let i = 0; i < ink.length; i++) {
    if (ink[i] && strays.has(regionOf[i]!)) for (let c = 0; c < img.channels; c++) data[i * img.channels + c] = background[c]!;
  }
  const painted = { ...img, data };
  return { img: painted, ink: inkMask(painted) };
}

/** Lays a stack of upright characters (trailer and container IDs painted top to bottom) side
 * by side, so the line recogniser can read it. Null when the crop does not split into rows.
 * A seam or bar beside the column, taller than any character, is painted over with the
 * background first: the recogniser reads it as a 1. */
export function stackToLine(original: RawImage): RawImage | null {
  const background = borderMedian(original);
  const { img, ink } = paintOverStrays(original, background);
  const rows = rowsOfInk(ink, img.width, img.height);
  if (rows.length < 2) return null;
  const charH = Math.max(...rows.map(([a, b]) => b - a));
  const pad = Math.max(2, Math.round(charH * 0.15));
  const cellH = charH + 2 * pad;
  const scale = 48 / cellH;
  const cells = rows.map(([a, b]) => {
    const top = Math.max(0, a - pad);
    const bottom = Math.min(img.height, b + pad);
    const cell = cropRect(img, 0, top, img.width, bottom - top);
    return resizeBilinear(cell, Math.max(1, Math.round(img.width * scale)), Math.max(1, Math.round((bottom - top) * scale)));
  });
  const gap = Math.round(48 * 0.1);
  const outW = cells.reduce((s, c) => s + c.width + gap, gap);
  const outH = 48;
  const ch = img.channels;
  const out = Buffer.alloc(outW * outH * ch);
  // Between the cells, the crop's background: a fill that differs from it draws an edge at
  // every cell's side, which reads as a 1.
  for (let i = 0; i < outW * outH; i++) for (let c = 0; c < ch; c++) out[i * ch + c] = background[c]!;
  let x0 = gap;
  for (const cell of cells) {
    const y0 = Math.max(0, Math.floor((outH - cell.height) / 2));
    for (let y = 0; y < cell.height && y0 + y < outH; y++) {
      cell.data.copy(out, ((y0 + y) * outW + x0) * ch, y * cell.width * ch, (y + 1) * cell.width * ch);
    }
    x0 += cell.width + gap;
  }
  return { data: out, width: outW, height: outH, channels: ch };
}

/** Per channel, the median of a picture's outermost rows and columns: its background where
 * text stands inside it. */
function borderMedian(img: RawImage): number[] {
  const { data, width: w, height: h, channels: ch } = img;
  const at: number[] = [];
  for (let x = 0; x < w; x++) at.push(x, (h - 1) * w + x);
  for (let y = 1; y < h - 1; y++) at.push(y * w, y * w + w - 1);
  return Array.from({ length: ch }, (_, c) => {
    const values = at.map((i) => data[i * ch + c]!).sort((a, b) => a - b);
    return values[values.length >> 1] ?? 0;
  });
}

/** Height over width of the narrowest single characters a detector boxes alone (a 1 with
 * its margins); a taller box holds a run of characters. */
const SINGLE_GLYPH_RATIO = 2.5;
/** The narrower of two runs of one column is at least this part of the wider one's width. */
const RUN_WIDTHS = 0.65;

/** Groups the pieces of a column painted top to bottom into one box: single-character boxes
 * the detector found one by one, and the tall boxes it found for runs of the column (it often
 * cuts a stack in two or three, or leaves a character on its own). Pieces are linked when
 * the next begins under where the last ends, their sizes match and the vertical gap is under
 * a character. A column is kept with at least `minChars` single characters or with at least
 * one tall piece among two or more; each column's box, along the line through its pieces
 * (columnBox), is returned. */
export function groupCharacterColumns(quads: readonly Quad[], minChars = 3): { columns: Quad[]; rest: Quad[] } {
  // Sizes are the boxes' own (a tilted run's upright bounds are wider than its characters);
  // positions are their bounds'.
  const items = quads.map((q, i) => ({ i, q, b: quadBounds(q), size: quadSize(q) }));
  type Piece = (typeof items)[number];
  const width = (p: Piece) => p.size.width;
  const height = (p: Piece) => p.size.height;
  const isCharLike = (p: Piece) => height(p) > 0 && width(p) / height(p) < 1.6 && width(p) / height(p) > 0.25;
  const isTall = (p: Piece) => height(p) >= width(p) * 1.5;
  const isRun = (p: Piece) => height(p) > width(p) * SINGLE_GLYPH_RATIO;
  // Height of one character: a box's own height, or for a tall run about its width. A tall box
  // at most SINGLE_GLYPH_RATIO times as tall as wide is one narrow character boxed alone (a 0,
  // a 1): its own height is the character's.
  const charHeight = (p: Piece) => (isRun(p) ? Math.min(height(p), width(p) * 1.4) : height(p));
  const used = new Set<number>();
  const columns: Quad[] = [];
  const sorted = items.filter((it) => isCharLike(it) || isTall(it)).sort((a, b) => a.b.y0 - b.b.y0);
  const links = (last: Piece, cand: Piece) => {
    // Where the last piece ends and the next begins: a tilted run's centre lies off the line.
    const dx = Math.abs((cand.q[0].x + cand.q[1].x) / 2 - (last.q[2].x + last.q[3].x) / 2);
    const gap = cand.b.y0 - last.b.y1;
    const lh = charHeight(last), ch = charHeight(cand);
    const wide = Math.max(width(last), width(cand));
    // Characters of one column: similar heights when both are single, similar widths when a
    // run is involved (a narrow 1 beside a run of wide digits still lines up with it).
    // Two runs of one column are about its width (a sticker or a placard under a column is
    // wider, and boxed as a run of its own lines).
    const alike = isRun(last) && isRun(cand)
      ? Math.min(width(last), width(cand)) > wide * RUN_WIDTHS && ch < lh * 2 && ch > lh * 0.5
      : isTall(last) || isTall(cand)
        ? Math.min(width(last), width(cand)) > wide * 0.35 && ch < lh * 2 && ch > lh * 0.5
        : ch < lh * 2 && ch > lh * 0.5;
    return alike && dx < wide * 0.5 && gap < Math.max(lh, ch) * 0.8 && gap > -0.8 * Math.min(lh, ch);
  };
  for (const seed of sorted) {
    if (used.has(seed.i)) continue;
    const chain = [seed];
    let last = seed;
    for (const cand of sorted) {
      if (used.has(cand.i) || chain.includes(cand) || cand.b.y0 < last.b.y0) continue;
      if (links(last, cand)) {
        chain.push(cand);
        last = cand;
      }
    }
    const tall = chain.filter(isTall).length;
    if ((tall === 0 && chain.length >= minChars) || (tall > 0 && chain.length >= 2)) {
      chain.forEach((c) => used.add(c.i));
      columns.push(columnBox(chain.map((c) => c.q)));
    }
  }
  return { columns, rest: quads.filter((_, i) => !used.has(i)) };
}
