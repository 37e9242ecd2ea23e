import type { RawImage } from '../image/decode.js';
import { writePlanarRgb } from '../image/planar.js';
import { resizeBilinear } from '../image/warp.js';
import { ctcGreedyDecode, type DecodedText } from '../ocr/ctc-decode.js';
import { createOnnxSession, type OnnxSessionOptions, runSingle, VIGIL_MODEL_FILES } from '../runtime/onnx-session.js';
import type { LineRecognizer } from '../ocr/ocr-engine.js';

/** Input of Vigil's own plate reader (training/vigil_train/model.py): a line or a whole plate,
 * stretched to 160 x 48 RGB, values in [0, 1]. */
export const READER_WIDTH = 160;
export const READER_HEIGHT = 48;

/** The reader's classes after the CTC blank (class 0). O and I are not among them: they were
 * folded into 0 and 1 when it was trained, and the region grammars choose the letter where a
 * format wants one (plate-scoring.ts treats each pair as one glyph). The exporter stores it in
 * the model's metadata too (`charset`), for people; onnxruntime-node does not show metadata, so
 * the reader checks the count of output classes instead. */
export const READER_CHARS = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Which graph of the reader runs: `int8` (models/plate-reader.int8.onnx, the default), its
 * convolutions in 8 bits with 7-bit weights (8-bit ones overflow onnxruntime's 16-bit sums on
 * CPUs without VNNI), 1.2 to 2.5 times as fast a crop on one core as `fp32`, the graph as
 * trained (models/plate-reader.onnx), and about the same plates read (models/README.md). */
export type PlateReaderPrecision = 'int8' | 'fp32';

export interface PlateTextModelOptions extends Pick<OnnxSessionOptions, 'intraOpNumThreads' | 'memoryArena'> {
  precision?: PlateReaderPrecision;
  /** Model file (default: the shipped one of `precision`). */
  file?: string;
}

/** The pixels of one crop as the reader's input: resized to 160 x 48, grey lines repeated over
 * the three channels, planar RGB scaled to [0, 1], written at `offset` of `out`. */
export function toReaderInput(crop: RawImage, out: Float32Array, offset: number): void {
  writePlanarRgb(resizeBilinear(crop, READER_WIDTH, READER_HEIGHT), out, offset, READER_WIDTH, READER_HEIGHT);
}

/** Allowed classes for a charset (blank always); O and I map to the 0 and 1 classes they were
 * trained as, so a caller's plate charset needs no knowledge of the fold. */
function maskFor(charset: string | undefined, chars: readonly string[]): Uint8Array | undefined {
  if (!charset) return undefined;
  const folded = new Set([...charset.toUpperCase()].map((c) => (c === 'O' ? '0' : c === 'I' ? '1' : c)));
  return Uint8Array.from(chars, (c, k) => (k === 0 || folded.has(c) ? 1 : 0));
}

/** The letters folded into digits in training (O into 0, I into 1). */
const FOLDED: Record<string, string> = { '0': 'O', '1': 'I' };

/** The reader cannot tell O from 0 nor I from 1: each such character gets its letter beside it
 * at the same probability, so the region grammars alone choose (a Brazilian OLB4809 over the
 * Czech-shaped 0LB4809), as they do for the general recogniser, which sees the difference. */
export function withFoldedTwins<T extends Pick<DecodedText, 'text' | 'charConfidences' | 'alternatives'>>(d: T, charset: string | undefined): T {
  const allowed = (c: string) => !charset || charset.toUpperCase().includes(c);
  const alternatives = d.alternatives.map((alts, i) => {
    const ch = d.text[i]!;
    const twin = FOLDED[ch];
    if (!twin || !allowed(twin) || alts.some((a) => a.char === twin)) return alts;
    return [...alts.slice(0, 1), { char: twin, prob: d.charConfidences[i] ?? 0 }, ...alts.slice(1)];
  });
  return { ...d, alternatives };
}

/** Vigil's trained plate reader as a line recogniser: the plate pipeline re-reads its candidate
 * lines with it in place of the general text recogniser. One small session, on one intra-op
 * thread unless asked for more (in 8 bits 1.3 ms a crop on one core with VNNI, 3.3 in float;
 * 4.6 against 5.3 ms on AVX2 alone; 2026-12-02). */
export async function createPlateTextModel(options: PlateTextModelOptions = {}): Promise<LineRecognizer> {
  const file = options.file ?? (options.precision === 'fp32' ? VIGIL_MODEL_FILES.plateReader : VIGIL_MODEL_FILES.plateReaderInt8);
  const session = await createOnnxSession(file, { intraOpNumThreads: options.intraOpNumThreads ?? 1, memoryArena: options.memoryArena });
  const chars = ['', ...READER_CHARS];
  return {
    async recognizeCrops(crops, opts = {}): Promise<DecodedText[]> {
      if (crops.length === 0) return [];
      const size = 3 * READER_WIDTH * READER_HEIGHT;
      const input = new Float32Array(crops.length * size);
      crops.forEach((crop, i) => toReaderInput(crop, input, i * size));
      const { data, dims } = await runSingle(session, input, [crops.length, 3, READER_HEIGHT, READER_WIDTH]);
      const [, frames, classes] = dims as [number, number, number];
      if (classes !== chars.length) throw new Error(`plate reader model has ${classes} classes, expected ${chars.length} (blank + ${READER_CHARS})`);
      const mask = maskFor(opts.charset, chars);
      return crops.map((crop, i) => withFoldedTwins(ctcGreedyDecode(data.subarray(i * frames * classes, (i + 1) * frames * classes), frames, classes, chars,
        { mask, frameWidth: crop.width / frames }), opts.charset));
    },
  };
}
