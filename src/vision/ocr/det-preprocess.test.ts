import { describe, expect, it } from 'vitest';
import { noiseImage as noise } from '../../../test/fixtures/images.js';
import type { RawImage } from '../image/decode.js';
import { resizeBilinear } from '../image/warp.js';
import { detectionSize, prepareDetectionInput, prepareDetectionInputAsync, resizeToDetectionTensor, toDetectionTensor } from './det-preprocess.js';

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

  /** Soft diagonal bands with dark bars on them: content a resize should keep, not noise. */
  const scene = (width: number, height: number): RawImage => {
    const data = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bar = x % 64 < 24 && y % 96 < 60;
        const v = bar ? 20 : 128 + Math.round(100 * Math.sin((x + y) / 90));
        data.set([v, 255 - v, (v * 3) % 256], (y * width + x) * 3);
      }
    }
    return { data, width, height, channels: 3 };
  };

  it('a 1080p photo shrunk by libvips gives the tensor the JavaScript path gives, up to resampling', async () => {
    const img = scene(1920, 1080);
    const fast = await prepareDetectionInputAsync(img, 960);
    const slow = prepareDetectionInput(img, 960);
    expect(fast.dims).toEqual(slow.dims);
    expect([fast.scaleX, fast.scaleY]).toEqual([slow.scaleX, slow.scaleY]);
    let sum = 0;
    for (let i = 0; i < fast.data.length; i++) sum += Math.abs(fast.data[i]! - slow.data[i]!);
    // Normalised units (about 1/58 per grey level): about one level apart on average, at bar edges.
    expect(sum / fast.data.length).toBeLessThan(0.05);
  });

  it('a smaller shrink stays on the exact JavaScript path', async () => {
    const img = noise(1280, 720, 3, 5);
    const fast = await prepareDetectionInputAsync(img, 960);
    const slow = prepareDetectionInput(img, 960).data;
    let differ = 0;
    for (let i = 0; i < slow.length; i++) if (fast.data[i] !== slow[i]) differ++;
    expect(differ).toBe(0);
  });

  it.each([3, 1] as const)('each byte becomes (v / 255 - mean) / std of its BGR plane, as float32 (%i channels)', (channels) => {
    const img = noise(37, 23, channels, 4);
    const mean = [0.406, 0.456, 0.485];
    const std = [0.225, 0.224, 0.229];
    const got = toDetectionTensor(img);
    const plane = img.width * img.height;
    for (let i = 0; i < plane; i++) {
      for (let k = 0; k < 3; k++) {
        // Plane k is B, G, R: RGB channel 2 - k, the only channel of a grey image.
        const v = img.data[i * channels + (channels === 3 ? 2 - k : 0)]!;
        expect(got[k * plane + i]).toBe(Math.fround((v / 255 - mean[k]!) / std[k]!));
      }
    }
  });

  it('a lent buffer with stale contents gives the same tensor as a new one, on either path', async () => {
    const stale = (n: number) => new Float32Array(n).fill(Number.NaN);
    for (const img of [noise(64, 48, 3, 1), noise(50, 30, 1, 2), noise(1280, 720, 3, 3)]) {
      const fresh = await prepareDetectionInputAsync(img, 960);
      const lent = await prepareDetectionInputAsync(img, 960, 0, stale);
      expect(lent.data).toEqual(fresh.data);
    }
    const img = noise(300, 200, 3, 6);
    expect(resizeToDetectionTensor(img, 96, 64, stale)).toEqual(resizeToDetectionTensor(img, 96, 64));
  });
});
