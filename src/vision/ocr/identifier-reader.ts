import { parseChoice } from '../../domain/choice.js';
import { createOnnxSession, type OnnxSessionOptions, VIGIL_MODEL_FILES } from '../runtime/onnx-session.js';
import type { DecodedText } from './ctc-decode.js';
import { charsetMask } from './dictionary.js';
import { IDENTIFIER_TABLE, readSlots } from './identifier-slot.js';
import type { LineRecognizer } from './ocr-engine.js';
import type { OcrType } from './ocr.types.js';

/** What reads the lines of trailer IDs and VINs that lie flat (IDENTIFIER_READER): `trained` (default),
 * Vigil's identifier reader with its convolutions in 8 bits (models/identifier-reader.int8.onnx)
 * reading each such line beside PP-OCR, each character the one both find likelier
 * (fused-readings.ts); `trained-fp32`, the same with the float graph as trained
 * (models/identifier-reader.onnx); `ppocr`, PP-OCR alone, as before 2026-12-03 (trailer IDs)
 * and 2026-12-04 (VINs). Figures: docs/benchmarks.md. */
export type IdentifierReaderChoice = 'trained' | 'trained-fp32' | 'ppocr';
export const IDENTIFIER_READERS: readonly IdentifierReaderChoice[] = ['trained', 'trained-fp32', 'ppocr'];
export const parseIdentifierReader = (value: string | undefined): IdentifierReaderChoice => parseChoice('IDENTIFIER_READER', IDENTIFIER_READERS, 'trained', value);

/** Which of the shipped graphs runs: `int8`, its convolutions in 8 bits (training/vigil_train/
 * quantize.py), 2.5 times as fast a line and reading the same identifiers (models/README.md), or
 * `fp32`, the float graph as trained. */
export type IdentifierPrecision = 'int8' | 'fp32';
export const identifierPrecision = (choice: IdentifierReaderChoice): IdentifierPrecision => (choice === 'trained-fp32' ? 'fp32' : 'int8');

/** The identifier types whose flat lines the identifier reader reads beside PP-OCR: trailer IDs
 * and, since 2026-12-04, VINs (the second generator's draws 40-49, 371 -> 377 of 400, none lost).
 * Boat numbers read as many with it (190 of 200 either way), so they keep PP-OCR alone
 * (docs/benchmarks.md). */
export const readsWithSecondLineReader = (type: OcrType): boolean => type === 'trailer_id' || type === 'vin';

/** Input of Vigil's identifier reader (training/vigil_train/train_ids.py): one text line in a
 * 48 x 384 slot (identifier-slot.ts). */
export const IDENTIFIER_WIDTH = 384;

export interface IdentifierReaderOptions extends Pick<OnnxSessionOptions, 'intraOpNumThreads' | 'memoryArena'> {
  /** Which shipped graph (default `int8`), unless `file` names another model. */
  precision?: IdentifierPrecision;
  file?: string;
}

/** Vigil's identifier reader as a line recogniser: upper-case letters, digits and spaces only,
 * which is all an identifier holds. */
export async function createIdentifierReader(options: IdentifierReaderOptions = {}): Promise<LineRecognizer> {
  const shipped = options.precision === 'fp32' ? VIGIL_MODEL_FILES.identifierReader : VIGIL_MODEL_FILES.identifierReaderInt8;
  const session = await createOnnxSession(options.file ?? shipped, { intraOpNumThreads: options.intraOpNumThreads ?? 1, memoryArena: options.memoryArena });
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
