import { parseChoice } from '../../domain/choice.js';
import type { RawImage } from '../image/decode.js';
import { writePlanarRgb } from '../image/planar.js';
import { resizeBilinear, rotateQuarter } from '../image/warp.js';
import { createOnnxSession, type OnnxSessionOptions, runSingle, VIGIL_MODEL_FILES } from '../runtime/onnx-session.js';
import { ctcGreedyDecode, type DecodedText, trimSpaces } from './ctc-decode.js';
import { buildCharTable, charsetMask } from './dictionary.js';

/** What reads characters painted one under another (trailer numbers, container codes) in text
 * photos (STACK_READER): `trained` (default), Vigil's own stack reader (models/stack-reader.onnx)
 * reading each column beside PP-OCR reading it laid out as a line, the reading two of them agree
 * on winning; `ppocr`, PP-OCR alone, as before 2026-12-03. Figures: docs/benchmarks.md. */
export type StackReaderChoice = 'trained' | 'ppocr';
export const STACK_READERS: readonly StackReaderChoice[] = ['trained', 'ppocr'];
export const parseStackReader = (value: string | undefined): StackReaderChoice => parseChoice('STACK_READER', STACK_READERS, 'trained', value);

/** Input of Vigil's stack reader (training/vigil_train/train_stacks.py): a column of characters
 * painted top to bottom, turned a quarter counter-clockwise (its top at the left), at height 48
 * keeping its aspect, squeezed where longer than 256, left-aligned in a 48 x 256 slot padded
 * with grey, planar RGB in [0, 1]. */
export const STACK_HEIGHT = 48;
export const STACK_WIDTH = 256;
/** The grey the trainer pads with (idsynth.py PAD). */
const PAD = 128 / 255;

/** Classes after the CTC blank: letters and digits apart, then a space (train_ids.py CHARS). */
const STACK_TABLE = buildCharTable([...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'].join('\n'));

/** Reads columns of upright characters as one line each, top to bottom. */
export interface StackRecognizer {
  recognizeStacks(columns: readonly RawImage[], options?: { charset?: string }): Promise<DecodedText[]>;
}

export interface StackReaderOptions extends Pick<OnnxSessionOptions, 'intraOpNumThreads' | 'memoryArena'> {
  /** Model file (default: the shipped one). */
  file?: string;
}

/** Columns the turned crop takes in the slot once scaled to height 48. */
function slotWidth(turned: { width: number; height: number }): number {
  return Math.max(1, Math.min(STACK_WIDTH, Math.ceil((STACK_HEIGHT * turned.width) / Math.max(1, turned.height))));
}

/** One upright column as the reader's input, written at `offset` of `out`. */
export function toStackInput(column: RawImage, out: Float32Array, offset: number): void {
  const turned = rotateQuarter(column, 1);
  out.fill(PAD, offset, offset + 3 * STACK_HEIGHT * STACK_WIDTH);
  writePlanarRgb(resizeBilinear(turned, slotWidth(turned), STACK_HEIGHT), out, offset, STACK_WIDTH, STACK_HEIGHT);
}

export async function createStackReader(options: StackReaderOptions = {}): Promise<StackRecognizer> {
  const session = await createOnnxSession(options.file ?? VIGIL_MODEL_FILES.stackReader, { intraOpNumThreads: options.intraOpNumThreads ?? 1, memoryArena: options.memoryArena });
  const { chars } = STACK_TABLE;
  const size = 3 * STACK_HEIGHT * STACK_WIDTH;
  return {
    async recognizeStacks(columns, opts = {}): Promise<DecodedText[]> {
      if (columns.length === 0) return [];
      const mask = opts.charset ? charsetMask(STACK_TABLE, opts.charset) : undefined;
      const input = new Float32Array(columns.length * size);
      columns.forEach((c, i) => toStackInput(c, input, i * size));
      const { data, dims } = await runSingle(session, input, [columns.length, 3, STACK_HEIGHT, STACK_WIDTH]);
      const [, frames, classes] = dims as [number, number, number];
      if (classes !== chars.length) throw new Error(`stack reader model has ${classes} classes, expected ${chars.length}`);
      return columns.map((_, i) => trimSpaces(ctcGreedyDecode(data.subarray(i * frames * classes, (i + 1) * frames * classes), frames, classes, chars, { mask })));
    },
  };
}
