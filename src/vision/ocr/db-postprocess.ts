import { type Point, type Quad, minAreaRect, orderQuad, rectCorners } from './geometry.js';

export interface DbOptions {
  /** Probability above which a pixel is text. */
  threshold?: number;
  /** Minimum mean probability of a region to keep it. */
  boxThreshold?: number;
  /** How far the shrunk text kernel is grown back (DB's unclip ratio). */
  unclipRatio?: number;
  /** Minimum short side, in map pixels. */
  minSize?: number;
  maxCandidates?: number;
}

export interface DetectedBox {
  /** Corners in probability-map pixels, clockwise from top-left. */
  quad: Quad;
  score: number;
}

/** 8-connected regions of the map's pixels above `threshold`; returns, per region, its pixel
 * indices (in the order a depth-first fill from its first pixel in scan order meets them). One
 * pass over the map with a visited flag per pixel: text covers a few hundred of a 640 x 352
 * map's pixels, so a mask, labels and a stack the size of the map cost more than the fill. */
export function textComponents(prob: Float32Array, threshold: number, width: number, height: number, maxComponents = 1000): Int32Array[] {
  const seen = new Uint8Array(prob.length);
  const comps: Int32Array[] = [];
  const stack: number[] = [];
  for (let start = 0; start < prob.length; start++) {
    if (!(prob[start]! > threshold) || seen[start]) continue;
    seen[start] = 1;
    const members: number[] = [];
    fillFrom(start, prob, threshold, width, height, seen, stack, members);
    comps.push(Int32Array.from(members));
    if (comps.length >= maxComponents) break;
  }
  return comps;
}

/** The depth-first fill of one region from `start` (already marked seen) into `members`. Its
 * own function, with the neighbours tested inline, so the scan over the map stays a tight loop.
 * Neighbours are pushed row by row, left to right: the fill's order is part of the result. */
function fillFrom(start: number, prob: Float32Array, threshold: number, width: number, height: number, seen: Uint8Array, stack: number[], members: number[]): void {
  stack.push(start);
  while (stack.length > 0) {
    const p = stack.pop()!;
    members.push(p);
    const y = (p / width) | 0;
    const x = p - y * width;
    const left = x > 0, right = x < width - 1;
    if (y > 0) {
      const q = p - width;
      if (left && prob[q - 1]! > threshold && !seen[q - 1]) { seen[q - 1] = 1; stack.push(q - 1); }
      if (prob[q]! > threshold && !seen[q]) { seen[q] = 1; stack.push(q); }
      if (right && prob[q + 1]! > threshold && !seen[q + 1]) { seen[q + 1] = 1; stack.push(q + 1); }
    }
    if (left && prob[p - 1]! > threshold && !seen[p - 1]) { seen[p - 1] = 1; stack.push(p - 1); }
    if (right && prob[p + 1]! > threshold && !seen[p + 1]) { seen[p + 1] = 1; stack.push(p + 1); }
    if (y < height - 1) {
      const q = p + width;
      if (left && prob[q - 1]! > threshold && !seen[q - 1]) { seen[q - 1] = 1; stack.push(q - 1); }
      if (prob[q]! > threshold && !seen[q]) { seen[q] = 1; stack.push(q); }
      if (right && prob[q + 1]! > threshold && !seen[q + 1]) { seen[q + 1] = 1; stack.push(q + 1); }
    }
  }
}

/** Corners of the first and last pixel of each of a component's rows: every other pixel's
 * corners lie between them, so they span the same convex hull as all its outline pixels, in
 * a few points per row instead of four per outline pixel (sorting those for the hull was most
 * of the post-processing of a map with large text). */
function rowEndCorners(members: Int32Array, width: number): Point[] {
  let y0 = Infinity, y1 = -Infinity;
  for (const p of members) {
    const y = Math.floor(p / width);
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  const rows = y1 - y0 + 1;
  const first = new Int32Array(rows).fill(width);
  const last = new Int32Array(rows).fill(-1);
  for (const p of members) {
    const y = Math.floor(p / width);
    const x = p - y * width;
    const r = y - y0;
    if (x < first[r]!) first[r] = x;
    if (x > last[r]!) last[r] = x;
  }
  const pts: Point[] = [];
  for (let r = 0; r < rows; r++) {
    if (last[r]! < 0) continue;
    const y = y0 + r;
    // Pixel corners rather than centres, so a one-pixel-thick stroke still has an area.
    pts.push({ x: first[r]!, y }, { x: first[r]!, y: y + 1 }, { x: last[r]! + 1, y }, { x: last[r]! + 1, y: y + 1 });
  }
  return pts;
}

/** DB post-processing: binarise, find regions, fit rotated rectangles, score, and unclip
 * (grow each side by area * ratio / perimeter, the offset PaddleOCR computes with pyclipper). */
export function dbPostprocess(prob: Float32Array, width: number, height: number, options: DbOptions = {}): DetectedBox[] {
  const threshold = options.threshold ?? 0.3;
  const boxThreshold = options.boxThreshold ?? 0.6;
  const unclipRatio = options.unclipRatio ?? 1.5;
  const minSize = options.minSize ?? 3;
  const comps = textComponents(prob, threshold, width, height, options.maxCandidates ?? 1000);
  const boxes: DetectedBox[] = [];
  for (const members of comps) {
    if (members.length < minSize * minSize) continue;
    let sum = 0;
    for (const p of members) sum += prob[p]!;
    const score = sum / members.length;
    if (score < boxThreshold) continue;
    const rect = minAreaRect(rowEndCorners(members, width));
    if (Math.min(rect.w, rect.h) < minSize) continue;
    const area = rect.w * rect.h;
    const perimeter = 2 * (rect.w + rect.h);
    const d = (area * unclipRatio) / perimeter;
    const grown = { ...rect, w: rect.w + 2 * d, h: rect.h + 2 * d };
    if (Math.min(grown.w, grown.h) < minSize + 2) continue;
    const corners = rectCorners(grown).map((p) => ({
      x: Math.min(width, Math.max(0, p.x)),
      y: Math.min(height, Math.max(0, p.y)),
    }));
    boxes.push({ quad: orderQuad(corners), score });
  }
  return boxes;
}
