import type { RawImage } from '../image/decode.js';
import { resizeBilinear } from '../image/warp.js';
import { writeNormalised } from './rec-preprocess.js';

/** Input of the PP-OCR text angle classifier (0 or 180 degrees). */
export const CLS_HEIGHT = 48;
export const CLS_WIDTH = 192;

export function prepareAngleBatch(crops: readonly RawImage[]): { data: Float32Array; dims: [number, 3, number, number] } {
  const plane = CLS_HEIGHT * CLS_WIDTH;
  const data = new Float32Array(crops.length * 3 * plane);
  crops.forEach((crop, n) => {
    const w = Math.max(1, Math.min(CLS_WIDTH, Math.ceil((CLS_HEIGHT * crop.width) / Math.max(1, crop.height))));
    writeNormalised(resizeBilinear(crop, w, CLS_HEIGHT), data, n * 3 * plane, CLS_WIDTH);
  });
  return { data, dims: [crops.length, 3, CLS_HEIGHT, CLS_WIDTH] };
}

/** Per crop: true when the classifier is confident the text is upside down. */
export function upsideDownFlags(output: Float32Array, count: number, threshold = 0.9): boolean[] {
  return Array.from({ length: count }, (_, i) => output[i * 2 + 1]! > threshold);
}
