import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { resizeBilinear } from '../image/warp.js';
import { detectionSize, resizeToDetectionTensor, toDetectionTensor } from './det-preprocess.js';

const noise = (width: number, height: number, channels: 1 | 3, seed: number): RawImage => {
  let a = seed;
  const data = Buffer.alloc(width * height * channels);
  for (let i = 0; i < data.length; i++) {
    a = (a * 1103515245 + 12345) >>> 0;
    data[i] = a >>> 24;
  }
  return { data, width, height, channels };
};

describe('detector input', () => {
  it.each([
    { name: '1080p colour photo to 960', w: 1920, h: 1080, ch: 3 as const, limit: 960 },
    { name: 'shrunk by less than 2x', w: 1280, h: 720, ch: 3 as const, limit: 960 },
    { name: 'shrunk by 3x', w: 1500, h: 999, ch: 3 as const, limit: 480 },
    { name: 'grey, enlarged', w: 300, h: 200, ch: 1 as const, limit: 960 },
  ])('one-pass resize and normalise equals resizing then normalising: $name', ({ w, h, ch, limit }) => {
    const img = noise(w, h, ch, w + h);
    const size = detectionSize(w, h, limit, ch === 1 ? 640 : 0);
    const expected = toDetectionTensor(resizeBilinear(img, size.width, size.height));
    const got = resizeToDetectionTensor(img, size.width, size.height);
    expect(got.length).toBe(expected.length);
    let worst = 0;
    for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i]! - expected[i]!));
    expect(worst).toBeLessThan(1e-4);
  });
});
