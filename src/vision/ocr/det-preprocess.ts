import type { RawImage } from '../image/decode.js';
import { resizeWithLibvips } from '../image/libvips-resize.js';
import { boxShrink, ROUND_UP_FROM_HALF } from '../image/warp.js';

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

/** Where a tensor's floats come from: `length` of them, every one of which is written. */
export type FloatSource = (length: number) => Float32Array;
const newFloats: FloatSource = (length) => new Float32Array(length);

/** Image (RGB or gray) to a normalised NCHW float tensor in BGR order. */
export function toDetectionTensor(img: RawImage, floats: FloatSource = newFloats): Float32Array {
  const { width: w, height: h, channels: ch, data } = img;
  const plane = w * h;
  const out = floats(3 * plane);
  // The normalised value of each byte per plane (BGR): one lookup per sample.
  const [lutB, lutG, lutR] = DETECTION_LUTS;
  const g = plane, r = 2 * plane;
  if (ch === 3) {
    for (let i = 0, j = 0; i < plane; i++, j += 3) {
      out[r + i] = lutR[data[j]!]!;
      out[g + i] = lutG[data[j + 1]!]!;
      out[i] = lutB[data[j + 2]!]!;
    }
  } else {
    for (let i = 0; i < plane; i++) {
      const v = data[i]!;
      out[i] = lutB[v]!;
      out[g + i] = lutG[v]!;
      out[r + i] = lutR[v]!;
    }
  }
  return out;
}

/** Per plane (B, G, R), each byte's normalised value, as float32 as the tensor stores it. */
const DETECTION_LUTS = [0, 1, 2].map((k) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - MEAN_BGR[k]!) / STD_BGR[k]!)) as [Float32Array, Float32Array, Float32Array];

export function prepareDetectionInput(img: RawImage, limitSide = 960, minSide = 0, floats: FloatSource = newFloats): DetectionInput {
  const size = detectionSize(img.width, img.height, limitSide, minSide);
  return {
    data: resizeToDetectionTensor(img, size.width, size.height, floats),
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
export async function prepareDetectionInputAsync(img: RawImage, limitSide = 960, minSide = 0, floats: FloatSource = newFloats): Promise<DetectionInput> {
  const size = detectionSize(img.width, img.height, limitSide, minSide);
  if (img.width < 2 * size.width && img.height < 2 * size.height) return prepareDetectionInput(img, limitSide, minSide, floats);
  const small = await resizeWithLibvips(img, size.width, size.height, 'lanczos3');
  return {
    data: toDetectionTensor({ ...small, channels: small.channels === 1 ? 1 : 3 }, floats),
    dims: [1, 3, size.height, size.width],
    scaleX: img.width / size.width,
    scaleY: img.height / size.height,
  };
}

/** `toDetectionTensor(resizeBilinear(img, width, height))` in one pass, without the per-sample
 * function calls: the same box-average when shrinking by 2x or more, the same bilinear weights
 * and rounding, about ten times faster on a 1080p photo. */
export function resizeToDetectionTensor(img: RawImage, width: number, height: number, floats: FloatSource = newFloats): Float32Array {
  if (width === img.width && height === img.height) return toDetectionTensor(img, floats);
  const fx = img.width / width;
  const fy = img.height / height;
  const src = fx >= 2 || fy >= 2 ? boxShrink(img, Math.max(1, Math.floor(fx)), Math.max(1, Math.floor(fy))) : img;
  const { width: sw, height: sh, channels: ch, data } = src;
  const sx = sw / width;
  const sy = sh / height;
  // Clamped neighbour indices and weights per output column and row.
  const x0 = new Int32Array(width), x1 = new Int32Array(width), wx = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const xx = Math.min(sw - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    x0[x] = Math.floor(xx);
    x1[x] = Math.min(sw - 1, x0[x]! + 1);
    wx[x] = xx - x0[x]!;
  }
  const plane = width * height;
  const out = floats(3 * plane);
  const scale = [0, 1, 2].map((k) => 1 / (255 * STD_BGR[k]!));
  const shift = [0, 1, 2].map((k) => MEAN_BGR[k]! / STD_BGR[k]!);
  for (let y = 0; y < height; y++) {
    const yy = Math.min(sh - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const ya = Math.floor(yy);
    const yb = Math.min(sh - 1, ya + 1);
    const fy1 = yy - ya;
    const rowA = ya * sw * ch;
    const rowB = yb * sw * ch;
    for (let x = 0; x < width; x++) {
      const a = x0[x]! * ch, b = x1[x]! * ch, f = wx[x]!;
      const o = y * width + x;
      for (let c = 0; c < 3; c++) {
        const cc = ch === 3 ? c : 0;
        const top = data[rowA + a + cc]! * (1 - f) + data[rowA + b + cc]! * f;
        const bottom = data[rowB + a + cc]! * (1 - f) + data[rowB + b + cc]! * f;
        const v = (top * (1 - fy1) + bottom * fy1 + ROUND_UP_FROM_HALF) | 0; // Math.round, cheaper
        // Planes in BGR order: R (c = 0) goes to plane 2.
        const k = 2 - c;
        out[k * plane + o] = v * scale[k]! - shift[k]!;
      }
    }
  }
  return out;
}
