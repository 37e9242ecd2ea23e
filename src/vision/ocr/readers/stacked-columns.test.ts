import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../image/decode.js';
import { findStackedColumns } from './stacked-columns.js';

/** A light grey picture with dark hollow 7x10 glyphs (a stand-in for stencilled characters)
 * at the given top-left corners. */
function picture(width: number, height: number, glyphs: Array<[number, number]>): RawImage {
  const data = Buffer.alloc(width * height, 200);
  for (const [gx, gy] of glyphs) {
    for (let y = 0; y < 10; y++) {
      for (let x = 0; x < 7; x++) {
        const edge = x < 2 || x > 4 || y < 2 || y > 7;
        if (edge) data[(gy + y) * width + gx + x] = 40;
      }
    }
  }
  return { data, width, height, channels: 1 };
}

const column = (x: number, y: number, n: number, pitch = 13) => Array.from({ length: n }, (_, i): [number, number] => [x, y + i * pitch]);
const row = (x: number, y: number, n: number, pitch = 9) => Array.from({ length: n }, (_, i): [number, number] => [x + i * pitch, y]);

describe('findStackedColumns', () => {
  it('finds small characters stacked one under another, with room for the rest of a code', () => {
    const cols = findStackedColumns(picture(400, 300, column(100, 60, 10)));
    expect(cols).toHaveLength(1);
    const c = cols[0]!;
    // Across: the glyphs and a margin; along: the glyphs (60..187) and more.
    expect(c.x).toBeLessThanOrEqual(100);
    expect(c.x + c.w).toBeGreaterThanOrEqual(107);
    expect(c.w).toBeLessThan(20);
    expect(c.y).toBeLessThan(60);
    expect(c.y + c.h).toBeGreaterThan(187);
  });

  it.each([
    { why: 'a line of horizontal text', glyphs: row(100, 100, 12) },
    { why: 'a block of text lines (characters above each other, but each in a word)', glyphs: [0, 1, 2, 3, 4, 5, 6, 7].flatMap((k) => row(100, 40 + k * 13, 10)) },
    { why: 'three characters are too few for a code', glyphs: column(100, 60, 3) },
  ])('ignores $why', ({ glyphs }) => {
    expect(findStackedColumns(picture(400, 300, glyphs))).toEqual([]);
  });

  it('finds the column beside a line of text', () => {
    const cols = findStackedColumns(picture(400, 300, [...column(60, 40, 11), ...row(150, 120, 12)]));
    expect(cols).toHaveLength(1);
    expect(cols[0]!.x).toBeLessThanOrEqual(60);
    expect(cols[0]!.x + cols[0]!.w).toBeLessThan(100);
  });
});
