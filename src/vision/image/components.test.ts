import { describe, expect, it } from 'vitest';
import { componentBoxes } from './components.js';

/** Rows of digits: 0 is background, other digits are labels. */
function grid(rows: string[]): { labels: Uint8Array; width: number; height: number } {
  const width = rows[0]!.length;
  return { labels: Uint8Array.from(rows.join('').split('').map(Number)), width, height: rows.length };
}

describe('componentBoxes', () => {
  const diagonal = grid([
    '110',
    '001',
    '001',
  ]);

  it('joins diagonal neighbours only when 8-connected', () => {
    expect(componentBoxes(diagonal.labels, diagonal.width, diagonal.height, 8)).toEqual([{ x0: 0, y0: 0, x1: 3, y1: 3, pixels: 4 }]);
    expect(componentBoxes(diagonal.labels, diagonal.width, diagonal.height, 4)).toEqual([
      { x0: 0, y0: 0, x1: 2, y1: 1, pixels: 2 },
      { x0: 2, y0: 1, x1: 3, y1: 3, pixels: 2 },
    ]);
  });

  it("tells each pixel its region's index when asked, and leaves background pixels alone", () => {
    const regionOf = new Int32Array(9).fill(-1);
    componentBoxes(diagonal.labels, diagonal.width, diagonal.height, 4, regionOf);
    expect([...regionOf]).toEqual([0, 0, -1, -1, -1, 1, -1, -1, 1]);
  });

  it('keeps touching regions of different labels apart, and leaves the input as it was', () => {
    const g = grid([
      '1122',
      '1122',
    ]);
    const before = Uint8Array.from(g.labels);
    expect(componentBoxes(g.labels, g.width, g.height, 8)).toEqual([
      { x0: 0, y0: 0, x1: 2, y1: 2, pixels: 4 },
      { x0: 2, y0: 0, x1: 4, y1: 2, pixels: 4 },
    ]);
    expect(g.labels).toEqual(before);
  });

  /** The flood fill as first written (a seen flag per pixel, neighbours in nested loops). */
  function reference(labels: Uint8Array, width: number, height: number, connectivity: 4 | 8) {
    const seen = new Uint8Array(labels.length);
    const found = [];
    for (let start = 0; start < labels.length; start++) {
      const kind = labels[start]!;
      if (!kind || seen[start]) continue;
      seen[start] = 1;
      const stack = [start];
      let x0 = width, y0 = height, x1 = 0, y1 = 0, pixels = 0;
      while (stack.length > 0) {
        const p = stack.pop()!;
        const x = p % width;
        const y = (p - x) / width;
        pixels++;
        x0 = Math.min(x0, x); x1 = Math.max(x1, x + 1); y0 = Math.min(y0, y); y1 = Math.max(y1, y + 1);
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
          if (connectivity === 4 && dx !== 0 && dy !== 0) continue;
          const [nx, ny] = [x + dx, y + dy];
          if (nx < 0 || nx >= width || ny < 0 || ny >= height) continue;
          const q = ny * width + nx;
          if (labels[q] === kind && !seen[q]) { seen[q] = 1; stack.push(q); }
        }
      }
      found.push({ x0, y0, x1, y1, pixels });
    }
    return found;
  }

  it.each([4, 8] as const)('random masks of one and two labels give the first flood fill\'s regions (%i-connected)', (connectivity) => {
    let s = 3;
    const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let n = 0; n < 60; n++) {
      const [width, height] = [1 + Math.floor(rnd() * 40), 1 + Math.floor(rnd() * 25)];
      const density = rnd();
      const kinds = n % 2 ? 1 : 2;
      const labels = Uint8Array.from({ length: width * height }, () => (rnd() < density ? 1 + Math.floor(rnd() * kinds) : 0));
      expect(componentBoxes(labels, width, height, connectivity)).toEqual(reference(labels, width, height, connectivity));
    }
  });
});
