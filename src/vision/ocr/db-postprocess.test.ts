import { describe, expect, it } from 'vitest';
import { dbPostprocess, textComponents } from './db-postprocess.js';

/** A width x height map at 0.05 with the given pixels at `p`. */
function map(width: number, height: number, pixels: Array<[number, number]>, p = 0.9): Float32Array {
  const m = new Float32Array(width * height).fill(0.05);
  for (const [x, y] of pixels) m[y * width + x] = p;
  return m;
}

const rect = (x0: number, y0: number, x1: number, y1: number) =>
  Array.from({ length: (x1 - x0) * (y1 - y0) }, (_, i) => [x0 + (i % (x1 - x0)), y0 + Math.floor(i / (x1 - x0))] as [number, number]);

describe('textComponents', () => {
  it.each([
    { name: 'regions apart are found in scan order of their first pixel', pixels: [...rect(10, 2, 14, 4), ...rect(2, 6, 5, 8)], sizes: [8, 6] },
    { name: 'pixels touching at a corner are one region (8-connected)', pixels: [[3, 3], [4, 4], [5, 5]] as Array<[number, number]>, sizes: [3] },
    { name: 'nothing above the threshold, no region', pixels: [], sizes: [] },
  ])('$name', ({ pixels, sizes }) => {
    const comps = textComponents(map(20, 10, pixels), 0.3, 20, 10);
    expect(comps.map((c) => c.length)).toEqual(sizes);
  });

  it('stops at the most regions asked for', () => {
    const dots: Array<[number, number]> = [[1, 1], [5, 1], [9, 1], [13, 1]];
    expect(textComponents(map(20, 4, dots), 0.3, 20, 4, 2)).toHaveLength(2);
  });
});

describe('dbPostprocess', () => {
  it('boxes an upright text region around its pixel corners, grown by the unclip offset', () => {
    // 20 x 6 pixels: area 120, perimeter 52, offset 120 * 1.5 / 52.
    const boxes = dbPostprocess(map(40, 20, rect(10, 7, 30, 13)), 40, 20);
    expect(boxes).toHaveLength(1);
    const d = (120 * 1.5) / 52;
    const xs = boxes[0]!.quad.map((p) => p.x);
    const ys = boxes[0]!.quad.map((p) => p.y);
    expect(Math.min(...xs)).toBeCloseTo(10 - d, 4);
    expect(Math.max(...xs)).toBeCloseTo(30 + d, 4);
    expect(Math.min(...ys)).toBeCloseTo(7 - d, 4);
    expect(Math.max(...ys)).toBeCloseTo(13 + d, 4);
    expect(boxes[0]!.score).toBeCloseTo(0.9, 5);
  });

  it('fits a slanted stroke with a rotated box, not its upright bounds', () => {
    // A band three pixels thick rising one row every four columns.
    const band: Array<[number, number]> = [];
    for (let x = 4; x < 44; x++) for (let t = 0; t < 3; t++) band.push([x, 14 - Math.floor((x - 4) / 4) + t]);
    const [box] = dbPostprocess(map(48, 20, band), 48, 20);
    const q = box!.quad;
    const side = (a: number, b: number) => Math.hypot(q[b]!.x - q[a]!.x, q[b]!.y - q[a]!.y);
    // Upright bounds would be 40 x 12; the fitted box is long and thin along the slope.
    expect(Math.min(side(0, 1), side(1, 2))).toBeLessThan(10);
    expect(Math.max(side(0, 1), side(1, 2))).toBeGreaterThan(40);
  });

  it('drops regions whose mean probability is under the box threshold', () => {
    expect(dbPostprocess(map(40, 20, rect(10, 7, 30, 13), 0.5), 40, 20, { boxThreshold: 0.6 })).toEqual([]);
  });
});

/** The fill as first written (neighbours in nested loops, a JS array for the stack): its pixel
 * order is part of textComponents' result (the region's score sums in that order). */
function referenceComponents(prob: Float32Array, threshold: number, width: number, height: number, maxComponents = 1000): number[][] {
  const seen = new Uint8Array(prob.length);
  const comps: number[][] = [];
  for (let start = 0; start < prob.length; start++) {
    if (!(prob[start]! > threshold) || seen[start]) continue;
    const stack = [start];
    seen[start] = 1;
    const members: number[] = [];
    while (stack.length > 0) {
      const p = stack.pop()!;
      members.push(p);
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const [nx, ny] = [x + dx, y + dy];
        if (nx < 0 || nx >= width || ny < 0 || ny >= height || (dx === 0 && dy === 0)) continue;
        const q = ny * width + nx;
        if (prob[q]! > threshold && !seen[q]) { seen[q] = 1; stack.push(q); }
      }
    }
    comps.push(members);
    if (comps.length >= maxComponents) break;
  }
  return comps;
}

describe('textComponents against the first fill', () => {
  it('random maps give the same regions with their pixels in the same order', () => {
    let s = 7;
    const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let n = 0; n < 60; n++) {
      const [width, height] = [1 + Math.floor(rnd() * 70), 1 + Math.floor(rnd() * 40)];
      const prob = new Float32Array(width * height);
      // Noise with blobs: single pixels, strokes and large regions (the stack grows past its start).
      // Speckle as dense as n asks (up to half the pixels): branching regions, whose fill order
      // depends on the order neighbours are pushed in.
      const speckle = 0.3 / (1 - (n % 5) / 10);
      for (let i = 0; i < prob.length; i++) prob[i] = rnd() * speckle;
      for (let b = Math.floor(rnd() * 6); b > 0; b--) {
        const [cx, cy, rx, ry] = [rnd() * width, rnd() * height, 1 + rnd() * 30, 1 + rnd() * 12];
        for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
          if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 < 1 && rnd() < 0.9) prob[y * width + x] = 0.5 + rnd() * 0.5;
        }
      }
      const max = n % 3 === 0 ? 1 + Math.floor(rnd() * 5) : 1000;
      expect(textComponents(prob, 0.3, width, height, max).map((c) => [...c])).toEqual(referenceComponents(prob, 0.3, width, height, max));
    }
  });
});
