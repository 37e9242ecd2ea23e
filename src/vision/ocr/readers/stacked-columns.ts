import { componentBoxes } from '../../image/components.js';
import type { RawImage } from '../../image/decode.js';
import { toGray } from '../../image/warp.js';

/** A rectangle in image pixels. */
export interface Box { x: number; y: number; w: number; h: number }

/** Character heights, in pixels, that a column of small stacked characters may have: the
 * detector finds larger ones itself (it misses characters under about 20 px standing apart). */
const MIN_CHAR_H = 6;
const MAX_CHAR_H = 40;
/** A column holds at least this many characters found (an ISO 6346 code has 11; paint wears). */
const MIN_CHARS = 6;

/**
 * Columns of small upright characters stacked top to bottom (a container code on a corner
 * post, seen from afar), found without the detector: the text detector links characters along
 * a row and misses a stack of small ones standing a character apart. Ink is what is darker or
 * lighter than its neighbourhood (both polarities); its blobs of character size that line up
 * one under the other, each alone on its row (not part of a line of horizontal text), make a
 * column. Those with most characters first, each with a margin, at most `max`.
 */
export function findStackedColumns(image: RawImage, max = 12): Box[] {
  const gray = toGray(image);
  const { width: w, height: h } = image;
  const sums = integral(gray, w, h);
  const blobs = inkBlobs(gray, sums, w, h);
  return columnsOf(blobs, w, h).slice(0, max);
}

/** Summed-area table with one extra row and column of zeros. */
export function integral(gray: Uint8Array, w: number, h: number): Float64Array {
  const s = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += gray[y * w + x]!;
      s[(y + 1) * (w + 1) + x + 1] = s[y * (w + 1) + x + 1]! + row;
    }
  }
  return s;
}

interface Blob { x0: number; y0: number; x1: number; y1: number }

/** Bounding boxes of connected ink, ink being 15% darker (or, apart, lighter) than the mean
 * of a window about three characters wide; only blobs of a character's size and shape. */
export function inkBlobs(gray: Uint8Array, sums: Float64Array, w: number, h: number): Blob[] {
  const r = 12;
  const ink = new Uint8Array(w * h);
  const W = w + 1;
  const xa = new Int32Array(w), xb = new Int32Array(w);
  for (let x = 0; x < w; x++) {
    xa[x] = Math.max(0, x - r);
    xb[x] = Math.min(w, x + r + 1);
  }
  for (let y = 0; y < h; y++) {
    const ya = Math.max(0, y - r), yb = Math.min(h, y + r + 1);
    const top = ya * W, bottom = yb * W;
    for (let x = 0; x < w; x++) {
      const a = xa[x]!, b = xb[x]!;
      const mean = (sums[bottom + b]! - sums[top + b]! - sums[bottom + a]! + sums[top + a]!) / ((yb - ya) * (b - a));
      const g = gray[y * w + x]!;
      if (g < mean * 0.85 && mean - g > 12) ink[y * w + x] = 1;
      else if (g > mean * 1.15 && g - mean > 12) ink[y * w + x] = 2;
    }
  }
  // Narrow and upright: one character or a few run together (small stacked characters
  // blur into each other), not a speck and not a solid patch (a rivet, a shadow).
  return componentBoxes(ink, w, h, 8).filter((c) => {
    const bw = c.x1 - c.x0, bh = c.y1 - c.y0;
    return bh >= MIN_CHAR_H && bh <= MAX_CHAR_H * 4 && bw <= MAX_CHAR_H && bw <= bh * 1.2 && (bw < 4 || c.pixels <= bw * bh * 0.85);
  });
}

/** Chains of blobs one under the other (centres aligned, a gap under about three character
 * widths: the owner code, the serial and the boxed check digit are often set apart), each
 * blob alone on its row (not part of a horizontal word); a chain tall enough for a code of
 * several characters is a column. Columns as boxes to read, those with most characters first. */
export function columnsOf(blobs: Blob[], w: number, h: number): Box[] {
  const bw = (b: Blob) => b.x1 - b.x0;
  const bh = (b: Blob) => b.y1 - b.y0;
  const cx = (b: Blob) => (b.x0 + b.x1) / 2;
  // A blob with a neighbour of its height just beside it is part of a horizontal word.
  // (Only blobs shaped like one character: runs of stacked characters blurred together stand
  // side by side with other paint.)
  const oneChar = (b: Blob) => bh(b) <= MAX_CHAR_H && bh(b) <= 2.2 * bw(b);
  const byX = blobs.filter(oneChar).sort((a, b) => a.x0 - b.x0);
  const inWord = new Set<Blob>();
  for (let i = 0; i < byX.length; i++) {
    const a = byX[i]!;
    for (let j = i + 1; j < byX.length && byX[j]!.x0 < a.x1 + bh(a) * 0.6; j++) {
      const b = byX[j]!;
      const sameRow = Math.abs((a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2) < Math.min(bh(a), bh(b)) * 0.3;
      const alike = bh(b) > bh(a) * 0.7 && bh(b) < bh(a) / 0.7;
      if (sameRow && alike && b.x0 >= a.x1 - 1) {
        inWord.add(a);
        inWord.add(b);
      }
    }
  }
  const single = blobs.filter((b) => !inWord.has(b)).sort((a, b) => a.y0 - b.y0);
  const reach = (a: Blob, b: Blob) => 3.5 * Math.max(bw(a), bw(b)) + 2;
  // Blobs by the band of columns their centre falls in (in order from the top), to look for
  // the next character below.
  const BAND = 16;
  const columnBands: Blob[][] = [];
  for (const b of single) (columnBands[Math.floor(cx(b) / BAND)] ??= []).push(b);
  const next = new Map<Blob, Blob>();
  const hasPrev = new Set<Blob>();
  for (const a of single) {
    let bestB: Blob | undefined;
    const k0 = Math.max(0, Math.floor((cx(a) - MAX_CHAR_H / 2 - 2) / BAND)), k1 = Math.floor((cx(a) + MAX_CHAR_H / 2 + 2) / BAND);
    for (let k = k0; k <= k1; k++) {
      for (const b of columnBands[k] ?? []) {
        const gap = b.y0 - a.y1;
        if (b === a || gap <= -2 || b.y0 <= a.y0) continue;
        if (gap > 4 * MAX_CHAR_H) break;
        const aligned = Math.abs(cx(a) - cx(b)) < Math.max(bw(a), bw(b)) * 0.5 + 1.5;
        // A narrow 1 beside wide letters still lines up on its centre.
        const alike = Math.min(bw(a), bw(b)) > Math.max(bw(a), bw(b)) * 0.25;
        if (aligned && alike && gap < reach(a, b) && !hasPrev.has(b) && (!bestB || b.y0 < bestB.y0)) bestB = b;
      }
    }
    if (bestB) {
      next.set(a, bestB);
      hasPrev.add(bestB);
    }
  }
  // Blobs by the row band their centre falls in, to look for ink beside a blob.
  const bands: Blob[][] = [];
  for (const b of blobs) (bands[Math.floor((b.y0 + b.y1) / 2 / BAND)] ??= []).push(b);
  const rowOf = (m: Blob) => bands.slice(Math.floor(m.y0 / BAND), Math.floor(m.y1 / BAND) + 1).flat();
  const columns: Array<Box & { alike: number }> = [];
  for (const head of single) {
    if (hasPrev.has(head) || !next.has(head)) continue;
    const chain = [head];
    for (let b = next.get(head); b; b = next.get(b)) chain.push(b);
    const widths = chain.map(bw).sort((a, b) => a - b);
    const charW = widths[Math.floor(widths.length * 0.75)]!;
    // A code is painted on a plain surface: blobs with other ink just beside them belong to
    // texture (gravel, foliage, a grille) or to other paint. Two of them in a row end a
    // column (one alone may be a rivet or a seam beside a character).
    const crowded = chain.map((m) => rowOf(m).some((o) => o !== m && o.y0 + o.y1 > 2 * m.y0 && o.y0 + o.y1 < 2 * m.y1 && ((cx(o) > m.x0 - 2 * charW && cx(o) < m.x0) || (cx(o) > m.x1 && cx(o) < m.x1 + 2 * charW))));
    let start = 0;
    for (let i = 0; i <= chain.length; i++) {
      if (i < chain.length && !(crowded[i] && crowded[i + 1])) continue;
      let a = start, b = i;
      while (a < b && crowded[a]) a++;
      while (b > a && crowded[b - 1]) b--;
      const col = columnBox(chain.slice(a, b), charW, w, h);
      if (col) columns.push(col);
      start = i + 2;
      i++;
    }
  }
  return columns.sort((a, b) => b.alike - a.alike).map(({ x, y, w: cw, h: ch }) => ({ x, y, w: cw, h: ch }));
}

/** The box to read for a run of blobs, when they look like a column of characters: several
 * characters tall, mostly ink (not a dotted seam or a row of rivets), at least three blobs
 * shaped like one character and of one height. Reaches as far as a whole code would beyond
 * the ends found (worn characters are often missed by the ink test). */
function columnBox(run: Blob[], charW: number, w: number, h: number): (Box & { alike: number }) | undefined {
  if (run.length < 3) return undefined;
  const bw = (b: Blob) => b.x1 - b.x0;
  const bh = (b: Blob) => b.y1 - b.y0;
  const oneChar = run.filter((b) => bh(b) >= bw(b) && bh(b) <= bw(b) * 2.6).map(bh).sort((a, b) => a - b);
  const charH = oneChar[oneChar.length >> 1] ?? 0;
  const alike = oneChar.filter((v) => v > charH * 0.75 && v < charH / 0.75).length;
  const y0 = run[0]!.y0, y1 = run.at(-1)!.y1;
  const ink = run.reduce((s, b) => s + bh(b), 0);
  if (alike < 3 || y1 - y0 < MIN_CHARS * charH || ink < (y1 - y0) * 0.5 || charH < MIN_CHAR_H || charH > MAX_CHAR_H) return undefined;
  const x0 = Math.min(...run.map((b) => b.x0)), x1 = Math.max(...run.map((b) => b.x1));
  // Four characters beyond each end, at least: an owner code too worn for the ink test.
  const missing = Math.max(4 * charH, 12 * charH * 1.15 - (y1 - y0));
  const mx = Math.round(charW * 0.5);
  const bx = Math.max(0, x0 - mx), by = Math.max(0, Math.round(y0 - missing));
  return { x: bx, y: by, w: Math.min(w, x1 + mx) - bx, h: Math.min(h, Math.round(y1 + missing)) - by, alike };
}
