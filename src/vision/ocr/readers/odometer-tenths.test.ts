import { describe, expect, it } from 'vitest';
import type { CharSpan } from '../ctc-decode.js';
import { evenlySpaced, type GrayImage, halfTurnedTenths, rereadLastCell, rolledTenths, shiftedTenthsLine, tenthsOfShiftedRead } from './odometer-tenths.js';

/** 5x7 bitmaps of the digits the drums below use. */
const FONT: Record<string, string[]> = {
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '1': ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '3': ['####.', '....#', '....#', '.###.', '....#', '....#', '####.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '7': ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  '8': ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
};

const SCALE = 4;
const PITCH = 32;
const HEIGHT = 44;
const TOP = 8;

/**
 * A drum window: light digits on a dark drum, the last wheel dark on a light wheel (a tenths
 * wheel of another colour). `tenths` is drawn in the last cell, or nothing when empty.
 */
function drum(digits: string, tenths: string): GrayImage {
  const width = PITCH * (digits.length + 1);
  const data = new Uint8Array(width * HEIGHT).fill(30);
  const last = digits.length * PITCH;
  for (let y = 2; y < HEIGHT - 2; y++) for (let x = last + 2; x < last + PITCH - 2; x++) data[y * width + x] = 225;
  const glyph = (d: string, cell: number, ink: number) => {
    FONT[d]!.forEach((row, j) => {
      [...row].forEach((c, i) => {
        if (c !== '#') return;
        for (let dy = 0; dy < SCALE; dy++) for (let dx = 0; dx < SCALE; dx++) data[(TOP + j * SCALE + dy) * width + cell * PITCH + 6 + i * SCALE + dx] = ink;
      });
    });
  };
  [...digits].forEach((d, k) => glyph(d, k, 220));
  if (tenths) glyph(tenths, digits.length, 25);
  return { data, width, height: HEIGHT };
}

/** CTC spans are a few columns around each glyph's centre. */
const spansOf = (n: number, step = PITCH): CharSpan[] => Array.from({ length: n }, (_, k) => ({ x0: k * step + PITCH / 2 - 3, x1: k * step + PITCH / 2 + 3 }));
const origin = { x: 0, y: 0, w: 0, h: HEIGHT };
const sure = (n: number, last: number) => [...Array(n - 1).fill(0.97), last];

describe('tenths wheel matched against the drum digits', () => {
  it.each([
    { what: 'an unsure misread tenths becomes the drum digit it matches', drum: '01832', tenths: '2', read: '018324', lastConfidence: 0.2, want: '2' },
    { what: 'a light wheel with dark ink matches a dark drum with light ink', drum: '01370', tenths: '3', read: '013708', lastConfidence: 0.3, want: '3' },
    { what: 'a sure reading of the tenths stands', drum: '01832', tenths: '2', read: '018324', lastConfidence: 0.9, want: undefined },
    { what: 'a reading that already says the matched digit stands', drum: '01832', tenths: '2', read: '018322', lastConfidence: 0.2, want: undefined },
    { what: 'an empty wheel (nothing to match) stands', drum: '01832', tenths: '', read: '018324', lastConfidence: 0.2, want: undefined },
  ])('$what', ({ drum: digits, tenths, read, lastConfidence, want }) => {
    const image = drum(digits, tenths);
    const got = rereadLastCell(() => image, { text: read, confidences: sure(read.length, lastConfidence), spans: spansOf(read.length) }, origin);
    expect(got).toBe(want);
  });

  it('leaves unevenly spaced characters alone (an LCD with narrow 1s is not a drum)', () => {
    const spans = [{ x0: 10, x1: 14 }, { x0: 40, x1: 44 }, { x0: 50, x1: 54 }, { x0: 80, x1: 84 }, { x0: 112, x1: 116 }, { x0: 144, x1: 148 }];
    expect(evenlySpaced(spans)).toBe(false);
    expect(evenlySpaced(spansOf(6))).toBe(true);
    const image = drum('01832', '2');
    expect(rereadLastCell(() => image, { text: '018324', confidences: sure(6, 0.2), spans }, origin)).toBeUndefined();
  });
});

describe('tenths wheel read shifted', () => {
  const read = (digit: string, confidence: number) => ({ digit, confidence });

  it('takes the digit the sure shifted reads agree on', () => {
    expect(rolledTenths([undefined, read('2', 0.98), read('2', 0.99), read('6', 0.17), undefined])).toBe('2');
  });

  it('settles nothing when no read is sure, or sure reads disagree', () => {
    expect(rolledTenths([read('5', 0.44), read('2', 0.56)])).toBeUndefined();
    expect(rolledTenths([read('3', 0.95), read('4', 0.94)])).toBeUndefined();
    expect(rolledTenths([])).toBeUndefined();
  });

  it('takes the surest digit inside the tenths cell, not the context digits before it', () => {
    const spans = [{ x0: 10, x1: 14 }, { x0: 40, x1: 44 }, { x0: 70, x1: 74 }];
    expect(tenthsOfShiftedRead({ text: '572', confidences: [1, 1, 0.9], spans }, 60)).toEqual({ digit: '2', confidence: 0.9 });
    expect(tenthsOfShiftedRead({ text: '57', confidences: [1, 1], spans: spans.slice(0, 2) }, 60)).toBeUndefined();
  });

  it('lays the context cells as they are beside the tenths cell sampled lower or higher', () => {
    // A 1-channel image whose pixel value is its row number.
    const image = { data: Buffer.from(Array.from({ length: 40 * 20 }, (_, k) => Math.floor(k / 40))), width: 40, height: 20, channels: 1 as const };
    const line = shiftedTenthsLine(image, { x: 0, y: 5, w: 10, h: 10 }, { x: 20, y: 5, w: 5, h: 10 }, 0.3);
    expect([line.width, line.height]).toEqual([15, 10]);
    expect(line.data[0]).toBe(5); // context row 0 is image row 5
    expect(line.data[10]).toBe(8); // tenths row 0 is image row 5 + 0.3 x 10
    expect(line.data[9 * 15 + 14]).toBe(17);
    // Inverted, only the tenths cell.
    const inverted = shiftedTenthsLine(image, { x: 0, y: 5, w: 10, h: 10 }, { x: 20, y: 5, w: 5, h: 10 }, 0.3, true);
    expect([inverted.data[0], inverted.data[10]]).toEqual([5, 255 - 8]);
    // Past the image's bottom edge, its last row repeats.
    expect(shiftedTenthsLine(image, { x: 0, y: 5, w: 10, h: 10 }, { x: 20, y: 5, w: 5, h: 10 }, 0.9).data[9 * 15 + 14]).toBe(19);
  });
});

describe('half-turned tenths wheel', () => {
  const half = (digit: string, confidence: number) => ({ digit, confidence });
  it.each([
    { what: 'the upper half and the whole window read as d and d + 1: the digit leaving the window', upper: half('2', 0.81), lower: undefined, whole: '3', want: '2' },
    { what: 'the whole window read as the upper half', upper: half('2', 0.75), lower: half('2', 0.23), whole: '2', want: '2' },
    { what: 'the lower half read surely as the next digit', upper: half('4', 0.9), lower: half('5', 0.8), whole: '7', want: '4' },
    { what: 'the drum rolls from 9 to 0', upper: half('9', 0.7), lower: undefined, whole: '0', want: '9' },
    { what: 'an unsure upper half settles nothing', upper: half('2', 0.45), lower: undefined, whole: '3', want: undefined },
    { what: 'no upper half read settles nothing', upper: undefined, lower: half('3', 0.95), whole: '3', want: undefined },
    { what: 'halves read surely as digits not in rolling order settle nothing', upper: half('2', 0.8), lower: half('6', 0.7), whole: '3', want: undefined },
    { what: 'a whole window read as another digit settles nothing', upper: half('2', 0.8), lower: undefined, whole: '5', want: undefined },
    { what: 'the next digit is the one below, not the one above', upper: half('3', 0.8), lower: undefined, whole: '2', want: undefined },
  ])('$what', ({ upper, lower, whole, want }) => expect(halfTurnedTenths(upper, lower, whole)).toBe(want));
});
