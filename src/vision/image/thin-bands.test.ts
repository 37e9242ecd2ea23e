import { describe, expect, it } from 'vitest';
import type { RawImage } from './decode.js';
import { fillThinBands } from './thin-bands.js';

/** A grey picture from rows of characters: '#' ink, '.' background, in the given shades. */
function picture(rows: string[], ink: number, background: number): RawImage {
  const width = rows[0]!.length, height = rows.length;
  const data = Buffer.alloc(width * height * 3);
  rows.forEach((row, y) => [...row].forEach((c, x) => data.fill(c === '#' ? ink : background, (y * width + x) * 3, (y * width + x + 1) * 3)));
  return { data, width, height, channels: 3 };
}
const at = (img: RawImage, x: number, y: number) => img.data[(y * img.width + x) * 3]!;

// Two strokes side by side, a three-row band across both, a gap between them.
const rows = [
  '##..##',
  '##..##',
  '......',
  '......',
  '......',
  '##..##',
  '##..##',
];

describe('fillThinBands', () => {
  it('fills a band across dark strokes, leaving the gap between characters open', () => {
    const filled = fillThinBands(picture(rows, 20, 230), 'dark', 2);
    expect(at(filled, 0, 2)).toBe(20);
    expect(at(filled, 5, 3)).toBe(20);
    expect(at(filled, 2, 1)).toBe(230);
    expect(at(filled, 3, 4)).toBe(230);
  });

  it('fills a dark band across light strokes the same way', () => {
    const filled = fillThinBands(picture(rows, 230, 20), 'light', 2);
    expect(at(filled, 1, 3)).toBe(230);
    expect(at(filled, 2, 3)).toBe(20);
  });

  it('leaves a band more than twice the radius tall', () => {
    expect(at(fillThinBands(picture(rows, 20, 230), 'dark', 1), 0, 3)).toBe(230);
  });
});
