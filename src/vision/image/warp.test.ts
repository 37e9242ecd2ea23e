import { describe, expect, it } from 'vitest';
import { noiseImage as noise } from '../../../test/fixtures/images.js';
import type { RawImage } from './decode.js';
import { boxShrink, type Point, rectToQuadHomography, resizeBilinear, ROUND_UP_FROM_HALF, warpQuad } from './warp.js';

/** The textbook definition, one channel at a time: what the optimised loops must reproduce. */
function referenceSample(img: RawImage, x: number, y: number, c: number): number {
  const { width: w, height: h, channels: ch, data } = img;
  const xc = Math.min(w - 1, Math.max(0, x));
  const yc = Math.min(h - 1, Math.max(0, y));
  const x0 = Math.floor(xc);
  const y0 = Math.floor(yc);
  const x1 = Math.min(w - 1, x0 + 1);
  const y1 = Math.min(h - 1, y0 + 1);
  const fx = xc - x0;
  const fy = yc - y0;
  const at = (xx: number, yy: number) => data[(yy * w + xx) * ch + c]!;
  return Math.round((at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy);
}

/** warpQuad's output checked pixel by pixel against referenceSample through the homography. */
function expectWarpMatchesReference(img: RawImage, quad: Point[], w: number, h: number): void {
  const got = warpQuad(img, quad, w, h);
  const m = rectToQuadHomography(quad, w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const z = m[6]! * (x + 0.5) + m[7]! * (y + 0.5) + m[8]!;
      const u = (m[0]! * (x + 0.5) + m[1]! * (y + 0.5) + m[2]!) / z - 0.5;
      const v = (m[3]! * (x + 0.5) + m[4]! * (y + 0.5) + m[5]!) / z - 0.5;
      for (let c = 0; c < img.channels; c++) expect(got.data[(y * w + x) * img.channels + c]).toBe(referenceSample(img, u, v, c));
    }
  }
}

/** resizeBilinear's output checked pixel by pixel against referenceSample (centres aligned). */
function expectResizeMatchesReference(img: RawImage, w: number, h: number): void {
  const got = resizeBilinear(img, w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) * (img.width / w) - 0.5;
      const v = (y + 0.5) * (img.height / h) - 0.5;
      for (let c = 0; c < img.channels; c++) expect(got.data[(y * w + x) * img.channels + c]).toBe(referenceSample(img, u, v, c));
    }
  }
}

describe('bilinear warps', () => {
  it.each([1, 3] as const)('a quadrilateral cut out matches per-channel bilinear sampling (%i channels)', (channels) => {
    const img = noise(200, 120, channels, 7);
    // Tilted, partly outside the image (border clamping).
    const quad: Point[] = [{ x: 10.3, y: 20.7 }, { x: 190.2, y: 5.1 }, { x: 205.9, y: 60.4 }, { x: 12.1, y: 80.5 }];
    expectWarpMatchesReference(img, quad, 150, 40);
  });

  it.each([1, 3] as const)('random quadrilaterals, inside and across the border, match per-channel bilinear sampling (%i channels)', (channels) => {
    const img = noise(97, 61, channels, 11);
    let s = 5;
    const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let n = 0; n < 40; n++) {
      const [x, y, qw, qh, skew] = [rnd() * 120 - 20, rnd() * 80 - 20, 3 + rnd() * 60, 2 + rnd() * 30, (rnd() - 0.5) * 12];
      const quad: Point[] = [{ x, y }, { x: x + qw, y: y + skew }, { x: x + qw + rnd() * 4, y: y + qh + skew }, { x: x - rnd() * 4, y: y + qh }];
      const [w, h] = [1 + Math.floor(rnd() * 90), 1 + Math.floor(rnd() * 40)];
      expectWarpMatchesReference(img, quad, w, h);
    }
  });

  it.each([1, 3] as const)('rotated, padded line boxes (parallelograms, warped without the perspective division) match the reference through the homography (%i channels)', (channels) => {
    const img = noise(160, 90, channels, 13);
    let s = 17;
    const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let n = 0; n < 40; n++) {
      const [cx, cy, qw, qh, angle] = [rnd() * 160, rnd() * 90, 4 + rnd() * 120, 3 + rnd() * 40, (rnd() - 0.5) * 0.8];
      const [c, sn] = [Math.cos(angle), Math.sin(angle)];
      const at = (dx: number, dy: number): Point => ({ x: cx + dx * c - dy * sn, y: cy + dx * sn + dy * c });
      const quad = [at(-qw / 2, -qh / 2), at(qw / 2, -qh / 2), at(qw / 2, qh / 2), at(-qw / 2, qh / 2)];
      expectWarpMatchesReference(img, quad, 1 + Math.floor(rnd() * 100), 1 + Math.floor(rnd() * 40));
    }
  });

  it.each([1, 3] as const)('resizes of random sizes match per-channel bilinear sampling (%i channels)', (channels) => {
    let s = 9;
    const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let n = 0; n < 30; n++) {
      const img = noise(1 + Math.floor(rnd() * 50), 1 + Math.floor(rnd() * 30), channels, n);
      // Up to just under 2x smaller (larger shrinks box-average first).
      const [w, h] = [Math.max(1, Math.ceil(img.width * (0.51 + rnd() * 2))), Math.max(1, Math.ceil(img.height * (0.51 + rnd() * 2)))];
      expectResizeMatchesReference(img, w, h);
    }
  });

  it.each([1, 3] as const)('a shrink by 2x or more box-averages (rounded) before sampling (%i channels)', (channels) => {
    const img = noise(83, 47, channels, 12);
    for (const [w, h] of [[41, 23], [20, 15], [27, 47], [83, 9]] as const) {
      const [kx, ky] = [Math.max(1, Math.floor(img.width / w)), Math.max(1, Math.floor(img.height / h))];
      const [bw, bh] = [Math.floor(img.width / kx), Math.floor(img.height / ky)];
      const boxed = { data: Buffer.alloc(bw * bh * channels), width: bw, height: bh, channels };
      for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let dy = 0; dy < ky; dy++) for (let dx = 0; dx < kx; dx++) sum += img.data[((y * ky + dy) * img.width + x * kx + dx) * channels + c]!;
        boxed.data[(y * bw + x) * channels + c] = Math.round(sum / (kx * ky));
      }
      const got = resizeBilinear(img, w, h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < channels; c++) {
        expect(got.data[(y * w + x) * channels + c]).toBe(referenceSample(boxed, (x + 0.5) * (bw / w) - 0.5, (y + 0.5) * (bh / h) - 0.5, c));
      }
    }
  });

  it('adding ROUND_UP_FROM_HALF before a byte store rounds as Math.round does, next to every tie', () => {
    const f = new Float64Array(1);
    const bits = new BigInt64Array(f.buffer);
    const byte = new Uint8Array(1);
    for (let n = 0; n < 256; n++) {
      for (const tie of [n + 0.5, n]) {
        for (let k = -64; k <= 64; k++) {
          f[0] = tie;
          bits[0]! += BigInt(k);
          const v = f[0]!;
          if (!(v >= 0 && v < 255.5)) continue;
          byte[0] = v + ROUND_UP_FROM_HALF;
          expect(byte[0]).toBe(Math.round(v));
        }
      }
    }
    byte[0] = 0.49999999999999994 + ROUND_UP_FROM_HALF;
    expect(byte[0]).toBe(0);
  });

  it.each([1, 3] as const)('an enlarging resize matches per-channel bilinear sampling (%i channels)', (channels) => {
    const img = noise(61, 23, channels, 3);
    expectResizeMatchesReference(img, 128, 48);
  });
});

describe('boxShrink', () => {
  /** Each output pixel the rounded mean of its kx x ky block, one channel at a time. */
  function referenceShrink(img: RawImage, kx: number, ky: number): number[] {
    const out: number[] = [];
    for (let y = 0; y < Math.floor(img.height / ky); y++) {
      for (let x = 0; x < Math.floor(img.width / kx); x++) {
        for (let c = 0; c < img.channels; c++) {
          let sum = 0;
          for (let dy = 0; dy < ky; dy++) for (let dx = 0; dx < kx; dx++) sum += img.data[((y * ky + dy) * img.width + x * kx + dx) * img.channels + c]!;
          out.push(Math.round(sum / (kx * ky)));
        }
      }
    }
    return out;
  }

  it.each([[3, 3, 2], [3, 2, 3], [1, 4, 4], [1, 3, 1], [3, 1, 1]] as const)('%i channel(s), %i x %i blocks: the mean of each block, partial edge blocks dropped', (channels, kx, ky) => {
    const src: RawImage = noise(37, 23, channels, 5);
    const shrunk = boxShrink(src, kx, ky);
    expect([shrunk.width, shrunk.height, shrunk.channels]).toEqual([Math.floor(37 / kx), Math.floor(23 / ky), src.channels]);
    expect([...shrunk.data]).toEqual(referenceShrink(src, kx, ky));
  });
});
