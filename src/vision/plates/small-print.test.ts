import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { numberColumns, toCharacterRows } from './small-print.js';

type Rect = [x: number, y: number, w: number, h: number];

/** A light line crop with dark rectangles for glyphs. */
function line(width: number, height: number, glyphs: readonly Rect[], ink = 20, paper = 230): RawImage {
  const data = Buffer.alloc(width * height * 3, paper);
  for (const [x, y, w, h] of glyphs) {
    for (let r = y; r < y + h; r++) for (let c = x; c < x + w; c++) data.fill(ink, (r * width + c) * 3, (r * width + c) * 3 + 3);
  }
  return { data, width, height, channels: 3 };
}

const number: Rect[] = [[100, 20, 30, 60], [140, 20, 30, 60], [180, 20, 30, 60], [220, 20, 30, 60]];

describe('small print beside a plate number', () => {
  it('finds a stacked type code before the number (US 5555)', () => {
    const span = numberColumns(line(300, 100, [[60, 20, 20, 25], [60, 55, 20, 25], ...number]));
    expect(span).not.toBeNull();
    expect(span!.x0).toBeGreaterThan(80);
    expect(span!.x0).toBeLessThanOrEqual(100);
    expect(span!.x1).toBe(300);
  });

  it('finds small characters after the number, light on dark too', () => {
    const img = line(320, 100, [...number, [262, 20, 15, 25], [280, 20, 15, 25]], 230, 20);
    const span = numberColumns(img);
    expect(span).not.toBeNull();
    expect(span!.x1).toBeGreaterThanOrEqual(250);
    expect(span!.x1).toBeLessThan(262);
  });

  it('leaves a number alone without small print, or with a single small mark', () => {
    expect(numberColumns(line(300, 100, number))).toBeNull();
    expect(numberColumns(line(300, 100, [[70, 40, 15, 20], ...number]))).toBeNull();
  });

  it('leaves small blobs alone when a tall blob shares their columns (a band joined to a letter)', () => {
    expect(numberColumns(line(300, 100, [[60, 20, 20, 25], [60, 55, 20, 25], [86, 8, 4, 84], ...number]))).toBeNull();
  });

  it('does not judge characters too small to tell print from a broken glyph', () => {
    const tiny: Rect[] = [[30, 6, 6, 12], [40, 6, 6, 12], [50, 6, 6, 12]];
    expect(numberColumns(line(80, 24, [[20, 6, 5, 5], [20, 13, 5, 5], ...tiny]))).toBeNull();
  });
});

describe('toCharacterRows', () => {
  const glyphs = (y: number, h: number): Rect[] => number.map(([x, , w]) => [x, y, w, h]);

  it('cuts a crop whose characters fill little of its height to their rows, with a margin', () => {
    // Characters 60 px tall in the middle of a 140 px crop (the box took in artwork around them).
    const rows = toCharacterRows(line(300, 140, glyphs(40, 60)));
    expect(rows.width).toBe(300);
    expect(rows.height).toBe(78);
  });

  it('leaves crops the characters fill, and characters off the crop\'s middle (a washed-out lower half)', () => {
    const full = line(300, 80, glyphs(10, 60));
    expect(toCharacterRows(full)).toBe(full);
    const high = line(300, 140, glyphs(15, 50));
    expect(toCharacterRows(high)).toBe(high);
  });
});
