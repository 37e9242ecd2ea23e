import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  constantsToInitializers,
  foldScalarAffineIntoConv,
  foldScalarAffineIntoNextConv,
  foldScalarScaleIntoNextConv,
  foldIntoConvTranspose,
  fuseHardSwish,
  pruneInitializers,
} from './onnx-fold.js';
import { encodeOnnxModel, parseOnnxModel } from './onnx-model.js';
import { parseChoice } from '../../domain/choice.js';

/**
 * Which graph the OCR sessions run (OCR_PRECISION):
 * - fused (the default): the shipped arithmetic with paddle2onnx's elementwise chains folded
 *   into the convolutions (outputs equal up to float rounding, fewer passes over each feature
 *   map: 12-30% less CPU per reading; rounding flips a borderline reading now and then, either way);
 * - fp32: the shipped PP-OCRv4 files as they are.
 * An int8 variant (static QDQ) was measured and dropped: on an AVX-512 VNNI CPU it saved 0-15%
 * CPU over fused, because onnxruntime cannot run hardswish in int8 and the Q/DQ passes around it
 * eat QLinearConv's gain, and it lost readings (plates 73% to 50%, odometers 22 to 6 of 37).
 */
export type OcrPrecision = 'fp32' | 'fused';
export const OCR_PRECISIONS: readonly OcrPrecision[] = ['fp32', 'fused'];

export const DEFAULT_OCR_PRECISION: OcrPrecision = 'fused';
export const parseOcrPrecision = (value: string | undefined): OcrPrecision => parseChoice('OCR_PRECISION', OCR_PRECISIONS, DEFAULT_OCR_PRECISION, value);

/** Bump when a pass changes, so cached files of the old passes are not reused. */
const PASSES_VERSION = 3;

/** The shipped model with its elementwise chains folded into the convolutions. */
export function deriveFusedModel(source: Uint8Array): Uint8Array {
  const model = parseOnnxModel(source);
  constantsToInitializers(model.graph);
  foldScalarAffineIntoConv(model.graph);
  fuseHardSwish(model.graph);
  foldScalarAffineIntoNextConv(model.graph);
  foldScalarScaleIntoNextConv(model.graph);
  foldIntoConvTranspose(model.graph);
  pruneInitializers(model.graph);
  return encodeOnnxModel(model);
}

/**
 * The derived model's bytes, from a cache file keyed by the source's hash when one was written
 * before (deriving the recogniser costs about a second).
 */
/** Makes `dir` (mode 0700) if missing and says whether only this user can write there: in a
 * shared temp dir another local user could otherwise plant the model this process loads. */
function ownPrivateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

export function fusedModelBytes(
  sourcePath: string,
  cacheDir = join(tmpdir(), 'vigil-onnx-variants'),
): Uint8Array {
  const source = readFileSync(sourcePath);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const file = join(cacheDir, `${hash}-fused-v${PASSES_VERSION}.onnx`);
  const trusted = ownPrivateDir(cacheDir);
  if (trusted) {
    try {
      return readFileSync(file);
    } catch {
      // not cached yet
    }
  }
  const bytes = deriveFusedModel(source);
  if (!trusted) return bytes;
  try {
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, file); // atomic: a concurrent reader sees the old state or the whole file
  } catch {
    // A full or read-only dir only costs the derivation again next time.
  }
  return bytes;
}
