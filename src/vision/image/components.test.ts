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
});
