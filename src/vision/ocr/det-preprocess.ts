import type { RawImage } from '../image/decode.js';
import { resizeBilinear } from '../image/warp.js';

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
  for (let i = 0; i < plane; i++) {
    const r = data[i * ch]!;
    const g = ch === 3 ? data[i * ch + 1]! : r;
    const b = ch === 3 ? data[i * ch + 2]! : r;
    out[i] = (b / 255 - MEAN_BGR[0]) / STD_BGR[0];
    out[plane + i] = (g / 255 - MEAN_BGR[1]) / STD_BGR[1];
    out[2 * plane + i] = (r / 255 - MEAN_BGR[2]) / STD_BGR[2];
  }
  return out;
}

export function prepareDetectionInput(img: RawImage, limitSide = 960, minSide = 0): DetectionInput {
  const size = detectionSize(img.width, img.height, limitSide, minSide);
  const resized = size.width === img.width && size.height === img.height ? img : resizeBilinear(img, size.width, size.height);
  return {
    data: toDetectionTensor(resized),
    dims: [1, 3, size.height, size.width],
    scaleX: img.width / size.width,
    scaleY: img.height / size.height,
  };
}
