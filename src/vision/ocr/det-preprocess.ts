import sharp from 'sharp';
import type { RawImage } from '../image/decode.js';

// ImageNet statistics, applied in BGR channel order as PaddleOCR trained the detector.
const MEAN_BGR = [0.406, 0.456, 0.485] as const;
const STD_BGR = [0.225, 0.224, 0.229] as const;

export interface DetectionInput {
  data: Float32Array;
  dims: [1, 3, number, number];
  /** Multiply map coordinates by these to get image pixels. */
  scaleX: number;
  scaleY: number;
}

/** Size the detector sees: longer side at most `limitSide` (never enlarged unless `minSide`
 * asks), each side rounded to a multiple of 32 as the DB network's strides require. */
export function detectionSize(width: number, height: number, limitSide = 960, minSide = 0): { width: number; height: number } {
  let ratio = 1;
  const longer = Math.max(width, height);
  if (longer > limitSide) ratio = limitSide / longer;
  else if (minSide > 0 && longer < minSide) ratio = minSide / longer;
  const round32 = (v: number) => Math.max(32, Math.round((v * ratio) / 32) * 32);
  return { width: round32(width), height: round32(height) };
}

/** Image (RGB or gray) to a normalised NCHW float tensor in BGR order. */
export function toDetectionTensor(img: RawImage): Float32Array {
  const { width: w, height: h, channels: ch, data } = img;
  const plane = w * h;
  const out = new Float32Array(3 * plane);
  // The normalised value of each byte per plane (BGR): one lookup per sample.
  const lut = new Float64Array(3 * 256);
  for (let k = 0; k < 3; k++) for (let v = 0; v < 256; v++) lut[k * 256 + v] = (v / 255 - MEAN_BGR[k]!) / STD_BGR[k]!;
  for (let i = 0; i < plane; i++) {
    const r = data[i * ch]!;
    const g = ch === 3 ? data[i * ch + 1]! : r;
    const b = ch === 3 ? data[i * ch + 2]! : r;
    out[i] = lut[b]!;
    out[plane + i] = lut[256 + g]!;
    out[2 * plane + i] = lut[512 + r]!;
  }
  return out;
}

export function prepareDetectionInput(img: RawImage, limitSide = 960, minSide = 0): DetectionInput {
  const size = detectionSize(img.width, img.height, limitSide, minSide);
  return {
    data: resizeToDetectionTensor(img, size.width, size.height),
    dims: [1, 3, size.height, size.width],
    scaleX: img.width / size.width,
    scaleY: img.height / size.height,
  };
}

/** prepareDetectionInput, with libvips shrinking an image the detector sees at half its size or
 * less (a 1080p photo at 960): about 5 ms instead of 40-60 ms of JavaScript on the thread that
 * also feeds the models. Lanczos, not a softer kernel: linear and Mitchell
 * each lost two of the 30 containers-gate codes, Lanczos none. Smaller shrinks stay in
 * JavaScript, where they are cheap. */
export async function prepareDetectionInputAsync(img: RawImage, limitSide = 960, minSide = 0): Promise<DetectionInput> {
  const size = detectionSize(img.width, img.height, limitSide, minSide);
  if (img.width < 2 * size.width && img.height < 2 * size.height) return prepareDetectionInput(img, limitSide, minSide);
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: toDetectionTensor({ data, width: info.width, height: info.height, channels: info.channels === 1 ? 1 : 3 }),
    dims: [1, 3, size.height, size.width],
    scaleX: img.width / size.width,
    scaleY: img.height / size.height,
  };
}

/** `toDetectionTensor(resizeBilinear(img, width, height))` in one pass, without the per-sample
 * function calls: the same box-average when shrinking by 2x or more, the same bilinear weights
 * and rounding. Each output row blends two source rows whose horizontal pass is shared by the
 * three channels, and the normalisation is a table lookup per byte value: a 1080p photo to
 * 960x544 in a few milliseconds (it was the engine's costliest JavaScript step). */
export function resizeToDetectionTensor(img: RawImage, width: number, height: number): Float32Array {
  if (width === img.width && height === img.height) return toDetectionTensor(img);
  const fx = img.width / width;
  const fy = img.height / height;
  const src = fx >= 2 || fy >= 2 ? boxShrink(img, Math.max(1, Math.floor(fx)), Math.max(1, Math.floor(fy))) : img;
  const { width: sw, height: sh, channels: ch, data } = src;
  const sx = sw / width;
  const sy = sh / height;
  // Per output column: byte offsets of the two source pixels (first channel) and the weight.
  const xa = new Int32Array(width), xb = new Int32Array(width), wx = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const xx = Math.min(sw - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    const x0 = Math.floor(xx);
    xa[x] = x0 * ch;
    xb[x] = Math.min(sw - 1, x0 + 1) * ch;
    wx[x] = xx - x0;
  }
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  // Normalised value of each byte, per output plane (BGR order: R goes to plane 2).
  const lut = new Float64Array(3 * 256);
  for (let k = 0; k < 3; k++) for (let v = 0; v < 256; v++) lut[k * 256 + v] = v / (255 * STD_BGR[k]!) - MEAN_BGR[k]! / STD_BGR[k]!;
  // The two source rows, interpolated horizontally, per channel.
  const top = new Float64Array(width * ch);
  const bottom = new Float64Array(width * ch);
  const horizontal = (row: number, into: Float64Array) => {
    const base = row * sw * ch;
    for (let x = 0; x < width; x++) {
      const a = base + xa[x]!, b = base + xb[x]!, f = wx[x]!, g = 1 - f;
      for (let c = 0; c < ch; c++) into[x * ch + c] = data[a + c]! * g + data[b + c]! * f;
    }
  };
  let topRow = -1;
  let bottomRow = -1;
  for (let y = 0; y < height; y++) {
    const yy = Math.min(sh - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const ya = Math.floor(yy);
    const yb = Math.min(sh - 1, ya + 1);
    const f = yy - ya;
    const g = 1 - f;
    if (ya !== topRow) {
      if (ya === bottomRow) top.set(bottom);
      else horizontal(ya, top);
      topRow = ya;
    }
    if (yb !== bottomRow) {
      horizontal(yb, bottom);
      bottomRow = yb;
    }
    const o = y * width;
    for (let x = 0; x < width; x++) {
      const i = x * ch;
      // Same rounding as resizeBilinear (values are never negative: floor(v + 0.5) = round(v)).
      const r = Math.floor(top[i]! * g + bottom[i]! * f + 0.5);
      const gg = ch === 3 ? Math.floor(top[i + 1]! * g + bottom[i + 1]! * f + 0.5) : r;
      const b = ch === 3 ? Math.floor(top[i + 2]! * g + bottom[i + 2]! * f + 0.5) : r;
      out[o + x] = lut[b]!;
      out[plane + o + x] = lut[256 + gg]!;
      out[2 * plane + o + x] = lut[512 + r]!;
    }
  }
  return out;
}

/** Box average over kx x ky blocks; colour images take an unrolled loop (the generic one spends
 * more on loop control than on the sums). */
function boxShrink(img: RawImage, kx: number, ky: number): RawImage {
  const w = Math.floor(img.width / kx);
  const h = Math.floor(img.height / ky);
  const ch = img.channels;
  const src = img.data;
  const out = Buffer.alloc(w * h * ch);
  const n = kx * ky;
  const stride = img.width * ch;
  let o = 0;
  for (let y = 0; y < h; y++) {
    const row = y * ky * stride;
    for (let x = 0; x < w; x++) {
      const start = row + x * kx * ch;
      if (ch === 3) {
        let s0 = 0, s1 = 0, s2 = 0;
        for (let dy = 0; dy < ky; dy++) {
          for (let p = start + dy * stride, end = p + kx * 3; p < end; p += 3) {
            s0 += src[p]!;
            s1 += src[p + 1]!;
            s2 += src[p + 2]!;
          }
        }
        out[o++] = Math.round(s0 / n);
        out[o++] = Math.round(s1 / n);
        out[o++] = Math.round(s2 / n);
      } else {
        let s = 0;
        for (let dy = 0; dy < ky; dy++) for (let p = start + dy * stride, end = p + kx; p < end; p++) s += src[p]!;
        out[o++] = Math.round(s / n);
      }
    }
  }
  return { data: out, width: w, height: h, channels: ch };
}
