import type { RawImage } from '../image/decode.js';
import { resizeBilinear } from '../image/warp.js';

export const REC_HEIGHT = 48;
/** Narrowest batch input PP-OCRv4 was trained with (48 x 320). */
export const REC_MIN_WIDTH = 320;

/** Width a crop takes once scaled to the recogniser height (never wider than `maxWidth`). */
export function recWidth(img: { width: number; height: number }, maxWidth: number): number {
  return Math.max(1, Math.min(maxWidth, Math.ceil((REC_HEIGHT * img.width) / Math.max(1, img.height))));
}

/** Batch of crops as one NCHW tensor: each resized to height 48 keeping its aspect, scaled to
 * [-1, 1] in BGR order, padded with zeros on the right to the widest crop of the batch, and to
 * `minWidth` columns at least. */
export function prepareRecognitionBatch(crops: readonly RawImage[], height = REC_HEIGHT, minWidth = REC_MIN_WIDTH): { data: Float32Array; dims: [number, 3, number, number] } {
  const maxRatio = Math.max(minWidth / height, ...crops.map((c) => c.width / Math.max(1, c.height)));
  const batchWidth = Math.ceil(height * maxRatio);
  const plane = height * batchWidth;
  const data = new Float32Array(crops.length * 3 * plane);
  crops.forEach((crop, n) => {
    const w = recWidth(crop, batchWidth);
    writeNormalised(atSize(crop, w, height), data, n * 3 * plane, batchWidth);
  });
  return { data, dims: [crops.length, 3, height, batchWidth] };
}

/** The crop at `width` x `height`, itself when it already is (plate lines are cut at the
 * recogniser's height: a bilinear pass at scale 1 would copy every pixel unchanged). */
function atSize(crop: RawImage, width: number, height: number): RawImage {
  return crop.width === width && crop.height === height ? crop : resizeBilinear(crop, width, height);
}

/** Writes an image into a CHW slot of `rowWidth` columns, values (v/255 - 0.5) / 0.5, BGR. */
export function writeNormalised(img: RawImage, out: Float32Array, offset: number, rowWidth: number): void {
  const { width: w, height: h, channels: ch, data } = img;
  const plane = h * rowWidth;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * ch;
      const r = data[i]!;
      const g = ch === 3 ? data[i + 1]! : r;
      const b = ch === 3 ? data[i + 2]! : r;
      const o = offset + y * rowWidth + x;
      out[o] = b / 127.5 - 1;
      out[o + plane] = g / 127.5 - 1;
      out[o + 2 * plane] = r / 127.5 - 1;
    }
  }
}

export interface PackedLine {
  /** Indices of the crops on this line, left to right, with their columns [x0, x1). */
  slots: Array<{ crop: number; x0: number; x1: number }>;
  /** Line width in columns: a multiple of 8 (one CTC frame), padding included. */
  width: number;
}

/** Lays short crops side by side on lines of about `lineWidth` columns (at height 48), `gap`
 * columns of neutral padding apart. The recogniser costs less per column on one wide line than
 * on many narrow ones padded to 320, and its CTC frames map back to columns, so each crop's
 * reading can be cut from the frames over its slot. A crop wider than a line gets its own. */
export function packRecognitionLines(crops: readonly { width: number; height: number }[], lineWidth = 1280, gap = 48): PackedLine[] {
  const lines: PackedLine[] = [];
  let end = 0;
  crops.forEach((c, crop) => {
    const w = recWidth(c, REC_HEIGHT * 40);
    let line = lines.at(-1);
    if (!line || end + gap + w > lineWidth) {
      line = { slots: [], width: 0 };
      lines.push(line);
      end = 0;
    }
    const x0 = end + gap;
    line.slots.push({ crop, x0, x1: x0 + w });
    end = x0 + w;
    line.width = Math.ceil((end + gap) / 8) * 8;
  });
  return lines;
}

/** One packed line as a [1, 3, 48, width] tensor. */
export function preparePackedLine(crops: readonly RawImage[], line: PackedLine, height = REC_HEIGHT): { data: Float32Array; dims: [number, 3, number, number] } {
  const data = new Float32Array(3 * height * line.width);
  for (const s of line.slots) writeNormalised(atSize(crops[s.crop]!, s.x1 - s.x0, height), data, s.x0, line.width);
  return { data, dims: [1, 3, height, line.width] };
}
