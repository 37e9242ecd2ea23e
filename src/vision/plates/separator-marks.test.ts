import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { separatorMarks } from './separator-marks.js';

/** A 48 px tall light line crop with dark boxes ([x0, y0, x1, y1], exclusive ends). */
function crop(width: number, boxes: ReadonlyArray<readonly [number, number, number, number]>): RawImage {
  const data = Buffer.alloc(width * 48 * 3, 230);
  for (const [x0, y0, x1, y1] of boxes) {
    for (let y = y0; y < y1; y++) data.fill(30, (y * width + x0) * 3, (y * width + x1) * 3);
  }
  return { data, width, height: 48, channels: 3 };
}

/** Three characters 12 px wide and 28 px tall (y 10..38), from x = 4, 20 and 36, and a fourth at 72. */
const chars = [[4, 10, 16, 38], [20, 10, 32, 38], [36, 10, 48, 38], [72, 10, 84, 38]] as const;
const span = (x0: number, x1: number) => ({ x0, x1 });
const charSpans = [span(6, 14), span(22, 30), span(38, 46), span(74, 82)];

describe('separatorMarks', () => {
  it.each([
    { name: 'a dot between the groups', mark: [[56, 20, 62, 27]] as const, expected: true },
    { name: 'a dash between the groups', mark: [[54, 22, 66, 26]] as const, expected: true },
    { name: 'small print above the middle', mark: [[56, 10, 62, 18]] as const, expected: false },
    { name: 'a character-high stroke (a 1)', mark: [[57, 10, 61, 38]] as const, expected: false },
    // A small Z broken into its bars and the middle of its diagonal.
    { name: 'a broken-up character', mark: [[54, 10, 66, 13], [58, 20, 62, 28], [54, 35, 66, 38]] as const, expected: false },
  ])('$name read as a character: $expected', ({ mark, expected }) => {
    const marks = separatorMarks(crop(100, [...chars, ...mark]), [...charSpans.slice(0, 3), span(56, 64), charSpans[3]!]);
    expect(marks).toEqual([false, false, false, expected, false]);
  });

  it('takes no hole of a bold character for a mark', () => {
    // Bold characters that cover most of a badge between dark bands, a D among them with a 14 px
    // hole on its middle: the rarer class there is the ground, its gaps between the characters
    // stand as tall blobs, and the hole would be a lone mid-height blob.
    const bold = crop(100, [[0, 0, 100, 4], [0, 44, 100, 48], [0, 4, 22, 44], [24, 4, 46, 44], [48, 4, 72, 44], [74, 4, 98, 44]]);
    for (let y = 17; y < 31; y++) bold.data.fill(230, (y * 100 + 56) * 3, (y * 100 + 64) * 3);
    expect(separatorMarks(bold, [span(8, 16), span(32, 40), span(56, 64), span(82, 90)])).toEqual([false, false, false, false]);
  });

  it('marks nothing without spans or with too few characters to measure', () => {
    expect(separatorMarks(crop(100, chars), undefined)).toEqual([]);
    expect(separatorMarks(crop(100, [chars[0], [56, 20, 62, 27]]), [span(6, 14), span(56, 64)])).toEqual([false, false]);
  });
});
