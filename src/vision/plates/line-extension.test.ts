import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { quadBounds } from '../image/quad.js';
import { extendToInk, growToCharacters } from './line-extension.js';
import type { PlateCandidate, Quad } from './plate.types.js';

/** A light plate with dark boxes drawn on it ([x0, y0, x1, y1], exclusive ends); `rise`
 * tilts the whole picture (each column moved down by rise times x), `plateSpan` keeps the light
 * plate to those columns with a dark car body on either side. */
function plate(width: number, height: number, boxes: Array<[number, number, number, number]>, rise = 0, plateSpan?: [number, number]): RawImage {
  const data = Buffer.alloc(width * height * 3, 230);
  const paint = (x: number, y: number, v: number) => {
    const yy = Math.round(y + rise * x);
    if (yy >= 0 && yy < height) data.fill(v, (yy * width + x) * 3, (yy * width + x) * 3 + 3);
  };
  if (plateSpan) {
    for (let x = 0; x < width; x++) if (x < plateSpan[0] || x >= plateSpan[1]) for (let y = 0; y < height; y++) data.fill(60, (y * width + x) * 3, (y * width + x) * 3 + 3);
  }
  for (const [x0, y0, x1, y1] of boxes) {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) paint(x, y, 30);
  }
  return { data, width, height, channels: 3 };
}

const line = (x0: number, x1: number, y0 = 25, y1 = 75, rise = 0): PlateCandidate => ({
  lines: [[{ x: x0, y: y0 + rise * x0 }, { x: x1, y: y0 + rise * x1 }, { x: x1, y: y1 + rise * x1 }, { x: x0, y: y1 + rise * x0 }] as Quad],
  dscore: 0.9,
});
const ends = (c: PlateCandidate) => {
  const b = quadBounds(c.lines[0]!);
  return [Math.round(b.x0), Math.round(b.x1)];
};

/** Characters 24 px wide, 40 px tall, every 34 px from x = 20 (a 6-character number). */
const chars = (n: number, from = 20): Array<[number, number, number, number]> =>
  Array.from({ length: n }, (_, i) => [from + 34 * i, 30, from + 34 * i + 24, 70]);

describe('extendToInk', () => {
  it('widens a line the detector stopped short of its last character', () => {
    const img = plate(260, 100, chars(6));
    // The box ends inside the fifth character's gap: the sixth (190..214) is left out. The band
    // is looked at 0.8 times as large (a 50 px line), so its end is found to within a pixel.
    const [x0, x1] = ends(extendToInk(img, line(16, 180)));
    expect(x0).toBe(16);
    expect(Math.abs(x1! - 214)).toBeLessThanOrEqual(1);
  });

  it('widens a tall line too, looked at in a band a fifth as large (a close-up of a plate)', () => {
    // The same plate five times as large: characters 120 px wide and 200 px tall, every 170 px.
    const big = (n: number): Array<[number, number, number, number]> => Array.from({ length: n }, (_, i) => [100 + 170 * i, 150, 220 + 170 * i, 350]);
    const img = plate(1300, 500, big(6));
    const [x0, x1] = ends(extendToInk(img, line(80, 900, 125, 375)));
    expect(x0).toBe(80);
    expect(Math.abs(x1! - 1070)).toBeLessThanOrEqual(5);
  });

  it('takes in a first character set apart by a wider gap (B 33333)', () => {
    const img = plate(300, 100, [[10, 30, 34, 70], ...chars(5, 70)]);
    expect(ends(extendToInk(img, line(66, 230)))[0]).toBe(10);
  });

  it('leaves a blob of character size in another ink beside the line (a logo\'s letter)', () => {
    const navy = [40, 60, 120];
    const light = [90, 120, 190];
    const painted = (logo: number[]) => {
      const img = plate(300, 100, []);
      for (const [[x0, y0, x1, y1], ink] of [...chars(5, 70).map((b) => [b, light] as const), [[10, 30, 34, 70], logo] as const]) {
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) img.data.set(ink, (y * 300 + x) * 3);
      }
      return img;
    };
    const c = line(66, 230);
    expect(extendToInk(painted(navy), c)).toBe(c);
    expect(ends(extendToInk(painted(light), c))[0]).toBe(10);
  });

  it('reaches across an emblem to the county number before it (2 [horse] 99YX)', () => {
    // The emblem is taller than the characters and about twice as wide.
    const img = plate(330, 100, [[10, 30, 34, 70], [44, 15, 116, 88], ...chars(4, 126)]);
    expect(ends(extendToInk(img, line(122, 250)))[0]).toBe(10);
  });

  it('widens a tilted line along its own axis', () => {
    // Rising 0.15 per pixel: a level band would cut the characters' tops and bottoms off.
    const img = plate(260, 160, chars(6), 0.15);
    const [x0, x1] = ends(extendToInk(img, line(16, 180, 25, 75, 0.15)));
    expect(x0).toBe(16);
    expect(Math.abs(x1! - 214)).toBeLessThanOrEqual(2);
  });

  it('finds the characters on a plate narrower than the band, among a dark car body', () => {
    // Most of the band beyond the plate is dark: ink is still what is rare on the line itself.
    const img = plate(400, 100, chars(6, 110), 0, [95, 320]);
    expect(ends(extendToInk(img, line(140, 305)))[0]).toBe(110);
  });

  it('leaves a line whose neighbours are small print, a badge or far away', () => {
    const img = plate(330, 100, [
      ...chars(4, 60),
      [20, 30, 40, 48], [20, 52, 40, 70], // a stacked type code, each letter half the height
      [200, 30, 240, 70], // a badge as wide as tall
      [290, 30, 314, 70], // a character beyond the badge, over a character height from the number
    ]);
    const c = line(56, 186);
    expect(extendToInk(img, c)).toBe(c);
  });

  it('leaves two-line candidates alone', () => {
    const img = plate(260, 100, chars(6));
    const c: PlateCandidate = { lines: [...line(16, 180, 10, 45).lines, ...line(16, 180, 55, 90).lines], dscore: 0.9 };
    expect(extendToInk(img, c)).toBe(c);
  });
});

describe('growToCharacters', () => {
  const rows = (c: PlateCandidate) => {
    const b = quadBounds(c.lines[0]!);
    return [Math.round(b.y0), Math.round(b.y1)];
  };
  /** Tall, condensed characters 24 px wide and 60 px tall (y 40..100), every 34 px. */
  const tall = (n: number): Array<[number, number, number, number]> => Array.from({ length: n }, (_, i) => [20 + 34 * i, 40, 44 + 34 * i, 100]);

  it('grows a box around the lower part of its characters to their top', () => {
    const img = plate(260, 160, tall(6));
    // The box holds rows 70..100 of characters that start at row 40.
    const [y0, y1] = rows(growToCharacters(img, line(16, 220, 70, 100)));
    expect(Math.abs(y0! - 40)).toBeLessThanOrEqual(2);
    expect(y1).toBe(100);
  });

  it('grows a box around their upper part to their bottom', () => {
    const img = plate(260, 160, tall(6));
    const [y0, y1] = rows(growToCharacters(img, line(16, 220, 40, 70)));
    expect(y0).toBe(40);
    expect(Math.abs(y1! - 100)).toBeLessThanOrEqual(2);
  });

  it('leaves a box that holds its characters whole, and one whose strokes run on into a frame', () => {
    const img = plate(260, 160, tall(6));
    expect(rows(growToCharacters(img, line(16, 220, 36, 104)))).toEqual([36, 104]);
    // Bars from the characters up to the picture's top edge: no character's top to grow to.
    const framed = plate(260, 160, [...tall(6), ...Array.from({ length: 6 }, (_, i): [number, number, number, number] => [28 + 34 * i, 0, 36 + 34 * i, 40])]);
    expect(rows(growToCharacters(framed, line(16, 220, 70, 100)))).toEqual([70, 100]);
  });

  it('leaves two-line candidates alone', () => {
    const img = plate(260, 160, tall(6));
    const two: PlateCandidate = { lines: [line(16, 220, 40, 70).lines[0]!, line(16, 220, 70, 100).lines[0]!], dscore: 0.9 };
    expect(growToCharacters(img, two)).toBe(two);
  });
});
