import type { RawImage } from '../image/decode.js';
import { writePlanarRgb } from '../image/planar.js';
import { resizeBilinear } from '../image/warp.js';
import { type OnnxSession, runSingle } from '../runtime/onnx-session.js';
import { ctcGreedyDecode, type DecodedText, trimSpaces } from './ctc-decode.js';
import { buildCharTable } from './dictionary.js';

/** The input Vigil's readers with identifier classes take (training/vigil_train/idsynth.py
 * fit_line): a crop at height 48 keeping its aspect, squeezed where it is wider than the slot,
 * left-aligned, grey beyond, planar RGB in [0, 1]. The stack reader (stack-reader.ts) takes a
 * column turned a quarter so; the identifier reader (identifier-reader.ts), a line. */
export const SLOT_HEIGHT = 48;
/** The grey the trainer pads with (idsynth.py PAD). */
const PAD = 128 / 255;

/** Classes after the CTC blank: letters and digits apart (an ISO 6346 owner code needs O and I),
 * then a space, as PP-OCR's tables end (train_ids.py CHARS; buildCharTable adds blank and space). */
export const IDENTIFIER_TABLE = buildCharTable([...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'].join('\n'));

/** Columns a crop takes in a slot `width` wide once scaled to height 48. */
export function slotWidth(crop: { width: number; height: number }, width: number): number {
  return Math.max(1, Math.min(width, Math.ceil((SLOT_HEIGHT * crop.width) / Math.max(1, crop.height))));
}

/** One crop in a slot `width` wide, written at `offset` of `out`. */
export function writeSlot(crop: RawImage, out: Float32Array, offset: number, width: number): void {
  out.fill(PAD, offset, offset + 3 * SLOT_HEIGHT * width);
  writePlanarRgb(resizeBilinear(crop, slotWidth(crop, width), SLOT_HEIGHT), out, offset, width, SLOT_HEIGHT);
}

/** Reads crops in one batch of slots `width` wide; character spans in crop pixels. */
export async function readSlots(session: OnnxSession, crops: readonly RawImage[], width: number, mask?: Uint8Array): Promise<DecodedText[]> {
  if (crops.length === 0) return [];
  const size = 3 * SLOT_HEIGHT * width;
  const input = new Float32Array(crops.length * size);
  crops.forEach((crop, i) => writeSlot(crop, input, i * size, width));
  const { data, dims } = await runSingle(session, input, [crops.length, 3, SLOT_HEIGHT, width]);
  const [, frames, classes] = dims as [number, number, number];
  const { chars } = IDENTIFIER_TABLE;
  if (classes !== chars.length) throw new Error(`model has ${classes} classes, expected ${chars.length} (letters, digits and a space)`);
  return crops.map((crop, i) => {
    // Frames cover the slot; the crop was scaled to slotWidth of its columns.
    const frameWidth = (width / frames) * (crop.width / slotWidth(crop, width));
    return trimSpaces(ctcGreedyDecode(data.subarray(i * frames * classes, (i + 1) * frames * classes), frames, classes, chars, { mask, frameWidth }));
  });
}
