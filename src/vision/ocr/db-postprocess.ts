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

/** Thresholds the map into a 0/1 mask. */
export function binarize(prob: Float32Array, threshold: number): Uint8Array {
  const out = new Uint8Array(prob.length);
  for (let i = 0; i < prob.length; i++) out[i] = prob[i]! > threshold ? 1 : 0;
  return out;
}

/** 8-connected components of a mask; returns, per component, its pixel indices. */
export function connectedComponents(mask: Uint8Array, width: number, height: number, maxComponents = 1000): Int32Array[] {
  const labels = new Int32Array(mask.length).fill(-1);
  const comps: Int32Array[] = [];
  const stack = new Int32Array(mask.length);
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start] !== -1) continue;
    const label = comps.length;
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    const members: number[] = [];
    while (top > 0) {
      const p = stack[--top]!;
      members.push(p);
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width || (dx === 0 && dy === 0)) continue;
          const q = ny * width + nx;
          if (mask[q] && labels[q] === -1) {
            labels[q] = label;
            stack[top++] = q;
          }
        }
      }
    }
    comps.push(Int32Array.from(members));
    if (comps.length >= maxComponents) break;
  }
  return comps;
}

/** Outline points of a component: pixels with a 4-neighbour outside it (enough for the hull). */
function outlinePoints(members: Int32Array, mask: Uint8Array, width: number, height: number): Point[] {
  const pts: Point[] = [];
  for (const p of members) {
    const x = p % width;
    const y = (p - x) / width;
    if (x === 0 || y === 0 || x === width - 1 || y === height - 1 || !mask[p - 1] || !mask[p + 1] || !mask[p - width] || !mask[p + width]) {
      // Pixel corners rather than centres, so a one-pixel-thick stroke still has an area.
      pts.push({ x, y }, { x: x + 1, y }, { x, y: y + 1 }, { x: x + 1, y: y + 1 });
    }
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
  const mask = binarize(prob, threshold);
  const comps = connectedComponents(mask, width, height, options.maxCandidates ?? 1000);
  const boxes: DetectedBox[] = [];
  for (const members of comps) {
    if (members.length < minSize * minSize) continue;
    let sum = 0;
    for (const p of members) sum += prob[p]!;
    const score = sum / members.length;
    if (score < boxThreshold) continue;
    const rect = minAreaRect(outlinePoints(members, mask, width, height));
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
