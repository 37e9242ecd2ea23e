import { createOnnxSession, type OnnxSessionOptions } from '../../src/vision/runtime/onnx-session.js';
import type { DecodedText } from '../../src/vision/ocr/ctc-decode.js';
import { charsetMask } from '../../src/vision/ocr/dictionary.js';
import { IDENTIFIER_TABLE, readSlots } from '../../src/vision/ocr/identifier-slot.js';
import type { LineRecognizer } from '../../src/vision/ocr/ocr-engine.js';

/** Input of Vigil's identifier reader (training/vigil_train/train_ids.py): one text line in a
 * 48 x 384 slot (src/vision/ocr/identifier-slot.ts). */
export const IDENTIFIER_WIDTH = 384;

export interface IdentifierTextModelOptions extends Pick<OnnxSessionOptions, 'intraOpNumThreads' | 'memoryArena'> {
  /** The exported model (training/runs/ids/identifier-reader.onnx, say). */
  file: string;
}

/** Vigil's identifier reader (not shipped: bench:ocr --identifier-model) as a line recogniser
 * for the OCR engine (withLineRecognizer):
 * upper-case letters, digits and spaces only, which is all an identifier holds. */
export async function createIdentifierTextModel(options: IdentifierTextModelOptions): Promise<LineRecognizer> {
  const session = await createOnnxSession(options.file, { intraOpNumThreads: options.intraOpNumThreads, memoryArena: options.memoryArena });
  return {
    async recognizeCrops(crops, opts = {}): Promise<DecodedText[]> {
      const mask = opts.charset ? charsetMask(IDENTIFIER_TABLE, opts.charset) : undefined;
      const results: DecodedText[] = [];
      const perBatch = Math.max(1, opts.batchSize ?? 8);
      for (let s = 0; s < crops.length; s += perBatch) results.push(...await readSlots(session, crops.slice(s, s + perBatch), IDENTIFIER_WIDTH, mask));
      return results;
    },
  };
}
