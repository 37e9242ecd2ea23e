import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { brightestChannel, hasColour } from './plate-variants.js';

const pixel = (rgb: number[]): RawImage => ({ data: Buffer.from(rgb), width: 1, height: 1, channels: 3 });

describe('brightestChannel', () => {
  it.each([
    ['orange emblem becomes light', [240, 140, 30], 240],
    ['dark green character stays dark', [20, 90, 40], 90],
    ['white background stays white', [245, 245, 240], 245],
  ])('%s', (_name, rgb, value) => {
    expect([...brightestChannel(pixel(rgb)).data]).toEqual([value, value, value]);
  });

  it('keeps grey images as they are', () => {
    const grey: RawImage = { data: Buffer.from([7]), width: 1, height: 1, channels: 1 };
    expect(brightestChannel(grey)).toBe(grey);
  });
});

describe('hasColour', () => {
  const image = (pixels: number[][]): RawImage => ({ data: Buffer.from(pixels.flat()), width: pixels.length, height: 1, channels: 3 });

  it.each([
    ['a grey picture', [[20, 20, 20], [230, 230, 230]], false],
    ['a grey picture within an encoder\'s rounding', [[20, 21, 22], [230, 229, 230]], false],
    ['one coloured pixel among grey ones', [[20, 20, 20], [230, 230, 230], [240, 140, 30]], true],
    ['a faint cream tint', [[235, 228, 200]], true],
  ])('%s', (_name, pixels, expected) => {
    expect(hasColour(image(pixels))).toBe(expected);
  });

  it('finds none in a one-channel picture', () => {
    expect(hasColour({ data: Buffer.from([7, 200]), width: 2, height: 1, channels: 1 })).toBe(false);
  });
});
