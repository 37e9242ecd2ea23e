import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { brightestChannel } from './plate-variants.js';

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
