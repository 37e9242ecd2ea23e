import { parseChoice } from '../../domain/choice.js';
import type { RawImage } from '../image/decode.js';
import { rotateQuarter } from '../image/warp.js';
import { createOnnxSession, type OnnxSessionOptions, VIGIL_MODEL_FILES } from '../runtime/onnx-session.js';
import type { DecodedText } from './ctc-decode.js';
import { charsetMask } from './dictionary.js';
import { IDENTIFIER_TABLE, readSlots } from './identifier-slot.js';

/** What reads characters painted one under another (trailer numbers, container codes) in text
 * photos (STACK_READER): `trained` (default), Vigil's own stack reader (models/stack-reader.onnx)
 * reading each column beside PP-OCR reading it laid out as a line, the reading two of them agree
 * on winning; `ppocr`, PP-OCR alone, as before 2026-12-03. Figures: docs/benchmarks.md. */
export type StackReaderChoice = 'trained' | 'ppocr';
export const STACK_READERS: readonly StackReaderChoice[] = ['trained', 'ppocr'];
export const parseStackReader = (value: string | undefined): StackReaderChoice => parseChoice('STACK_READER', STACK_READERS, 'trained', value);

/** Input of Vigil's stack reader (training/vigil_train/train_stacks.py): a column of characters
 * painted top to bottom, turned a quarter counter-clockwise (turnColumn: its top at the left),
 * in a 48 x 256 slot (identifier-slot.ts). */
export const STACK_WIDTH = 256;

/** A column as the reader sees it: turned a quarter counter-clockwise, its top at the left. */
export const turnColumn = (column: RawImage): RawImage => rotateQuarter(column, 1);

/** Reads columns of upright characters as one line each, top to bottom. */
export interface StackRecognizer {
  recognizeStacks(columns: readonly RawImage[], options?: { charset?: string }): Promise<DecodedText[]>;
}

export interface StackReaderOptions extends Pick<OnnxSessionOptions, 'intraOpNumThreads' | 'memoryArena'> {
  /** Model file (default: the shipped one). */
  file?: string;
}

export async function createStackReader(options: StackReaderOptions = {}): Promise<StackRecognizer> {
  const session = await createOnnxSession(options.file ?? VIGIL_MODEL_FILES.stackReader, { intraOpNumThreads: options.intraOpNumThreads ?? 1, memoryArena: options.memoryArena });
  return {
    recognizeStacks: (columns, opts = {}) =>
      readSlots(session, columns.map(turnColumn), STACK_WIDTH, opts.charset ? charsetMask(IDENTIFIER_TABLE, opts.charset) : undefined),
  };
}
