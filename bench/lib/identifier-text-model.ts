import type { RawImage } from '../../src/vision/image/decode.js';
import { writePlanarRgb } from '../../src/vision/image/planar.js';
import { resizeBilinear } from '../../src/vision/image/warp.js';
import { createOnnxSession, type OnnxSessionOptions, runSingle } from '../../src/vision/runtime/onnx-session.js';
import { ctcGreedyDecode, type DecodedText, trimSpaces } from '../../src/vision/ocr/ctc-decode.js';
import { buildCharTable, charsetMask } from '../../src/vision/ocr/dictionary.js';
import type { LineRecognizer } from '../../src/vision/ocr/ocr-engine.js';

/** Input of Vigil's identifier reader (training/vigil_train/train_ids.py): one text line at
 * height 48 keeping its aspect, squeezed where it is wider than 384, left-aligned in a 48 x 384
 * slot padded with grey, planar RGB in [0, 1]. */
export const IDENTIFIER_HEIGHT = 48;
export const IDENTIFIER_WIDTH = 384;
/** The grey the trainer pads with (idsynth.py PAD). */
const PAD = 128 / 255;

/** Classes after the CTC blank: letters and digits apart (an ISO 6346 owner code needs O and I),
 * then a space, as PP-OCR's tables end (buildCharTable adds the blank and the space). */
const IDENTIFIER_TABLE = buildCharTable([...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'].join('\n'));

export interface IdentifierTextModelOptions extends Pick<OnnxSessionOptions, 'intraOpNumThreads' | 'memoryArena'> {
  /** The exported model (training/runs/ids/identifier-reader.onnx, say). */
  file: string;
}

/** Columns a crop takes in the slot once scaled to height 48. */
export function identifierSlotWidth(crop: { width: number; height: number }): number {
  return Math.max(1, Math.min(IDENTIFIER_WIDTH, Math.ceil((IDENTIFIER_HEIGHT * crop.width) / Math.max(1, crop.height))));
}

/** One crop as the reader's input, written at `offset` of `out`. */
export function toIdentifierInput(crop: RawImage, out: Float32Array, offset: number): void {
  out.fill(PAD, offset, offset + 3 * IDENTIFIER_HEIGHT * IDENTIFIER_WIDTH);
  writePlanarRgb(resizeBilinear(crop, identifierSlotWidth(crop), IDENTIFIER_HEIGHT), out, offset, IDENTIFIER_WIDTH, IDENTIFIER_HEIGHT);
}

/** Vigil's identifier reader (not shipped: bench:ocr --identifier-model) as a line recogniser
 * for the OCR engine (withLineRecognizer):
 * upper-case letters, digits and spaces only, which is all an identifier holds. */
export async function createIdentifierTextModel(options: IdentifierTextModelOptions): Promise<LineRecognizer> {
  const session = await createOnnxSession(options.file, { intraOpNumThreads: options.intraOpNumThreads, memoryArena: options.memoryArena });
  const { chars } = IDENTIFIER_TABLE;
  const size = 3 * IDENTIFIER_HEIGHT * IDENTIFIER_WIDTH;
  return {
    async recognizeCrops(crops, opts = {}): Promise<DecodedText[]> {
      const mask = opts.charset ? charsetMask(IDENTIFIER_TABLE, opts.charset) : undefined;
      const results: DecodedText[] = [];
      const perBatch = Math.max(1, opts.batchSize ?? 8);
      for (let s = 0; s < crops.length; s += perBatch) {
        const slice = crops.slice(s, s + perBatch);
        const input = new Float32Array(slice.length * size);
        slice.forEach((crop, i) => toIdentifierInput(crop, input, i * size));
        const { data, dims } = await runSingle(session, input, [slice.length, 3, IDENTIFIER_HEIGHT, IDENTIFIER_WIDTH]);
        const [, frames, classes] = dims as [number, number, number];
        if (classes !== chars.length) throw new Error(`identifier reader model has ${classes} classes, expected ${chars.length}`);
        slice.forEach((crop, i) => {
          // Frames cover the slot; the crop was scaled to identifierSlotWidth of its columns.
          const frameWidth = (IDENTIFIER_WIDTH / frames) * (crop.width / identifierSlotWidth(crop));
          const d = ctcGreedyDecode(data.subarray(i * frames * classes, (i + 1) * frames * classes), frames, classes, chars, { mask, frameWidth });
          results.push(trimSpaces(d));
        });
      }
      return results;
    },
  };
}
