import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { toGray } from '../image/warp.js';
import { otsuThreshold } from '../ocr/vertical-text.js';
import { inkMask, type InkOptions, numberColumns, toCharacterRows } from './small-print.js';
import { noiseImage } from '../../../test/fixtures/images.js';

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

/** The ink mask as first written: the sampled columns copied out, Otsu over the copy, the
 * dark pixels counted one by one. */
function referenceInk(img: RawImage, options: InkOptions = {}): Uint8Array {
  const gray = toGray(img);
  const { width: w, height: h } = img;
  let sample = gray;
  if (options.among) {
    const from = Math.max(0, Math.min(w - 1, Math.round(options.among.x0)));
    const to = Math.max(from + 1, Math.min(w, Math.round(options.among.x1)));
    sample = new Uint8Array((to - from) * h);
    for (let y = 0; y < h; y++) sample.set(gray.subarray(y * w + from, y * w + to), y * (to - from));
  }
  const t = otsuThreshold(sample);
  const dark = sample.filter((v) => v <= t).length;
  const darkInk = options.darkInk ?? dark < sample.length / 2;
  return gray.map((v) => ((v <= t) === darkInk ? 1 : 0));
}

describe('inkMask', () => {
  it('gives the first version\'s mask on random crops, for every choice of columns and ink', () => {
    let s = 1;
    const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let n = 0; n < 40; n++) {
      const img = noiseImage(1 + Math.floor(rnd() * 60), 1 + Math.floor(rnd() * 30), n % 2 ? 3 : 1, n);
      // Mostly a light background, so the classes are uneven.
      for (let i = 0; i < img.data.length; i++) if (rnd() < 0.6) img.data[i] = 200 + (img.data[i]! % 40);
      const w = img.width;
      for (const options of [{}, { darkInk: true }, { darkInk: false }, { among: { x0: 0.3 * w, x1: 0.7 * w } }, { among: { x0: -4, x1: 2 * w } }, { among: { x0: w + 2, x1: w + 5 } }]) {
        expect(inkMask(img, options)).toEqual(referenceInk(img, options));
      }
    }
  });
});
