import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { observeRanges } from './onnx-calibrate.js';
import {
  constantsToInitializers,
  foldScalarAffineIntoConv,
  foldScalarAffineIntoNextConv,
  foldScalarScaleIntoNextConv,
  fuseHardSwish,
  pruneInitializers,
} from './onnx-fold.js';
import { encodeOnnxModel, parseOnnxModel } from './onnx-model.js';
import { upgradeOpset9To10 } from './onnx-opset.js';
import { quantizableConvs, quantizeConvsStatic, tensorsToCalibrate } from './onnx-quantize.js';

/**
 * Which graph the OCR sessions run (OCR_PRECISION):
 * - fp32: the shipped PP-OCRv4 files as they are (the default);
 * - fused: the same fp32 arithmetic with paddle2onnx's elementwise chains folded into the
 *   convolutions (outputs equal up to float rounding, fewer passes over each feature map);
 * - int8: fused, then every convolution but the first in int8 (QDQ, calibrated on synthetic text).
 *   Not for production: on an AVX-512 VNNI CPU it saved 0-15% CPU over fused (the Q/DQ passes
 *   around each hardswish eat most of QLinearConv's gain) and lost readings (plates scenes-us
 *   73% to 50%, odometers 22 to 6 of 37). Kept so the trade can be re-measured.
 */
export type OcrPrecision = 'fp32' | 'fused' | 'int8';
export const OCR_PRECISIONS: readonly OcrPrecision[] = ['fp32', 'fused', 'int8'];

export function parseOcrPrecision(value: string | undefined): OcrPrecision {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return 'fp32';
  if ((OCR_PRECISIONS as readonly string[]).includes(v)) return v as OcrPrecision;
  throw new Error(`OCR_PRECISION must be one of ${OCR_PRECISIONS.join(', ')}, got "${value}"`);
}

/** What a derived graph is calibrated on: the model's own input kind. */
export type CalibrationInputs = () => Promise<Array<{ data: Float32Array; dims: readonly number[] }>>;

/** Bump when a pass changes, so cached files of the old passes are not reused. */
const PASSES_VERSION = 2;

/** The shipped model rewritten for `precision` (not for fp32, which runs the file itself). */
export async function deriveModel(source: Uint8Array, precision: Exclude<OcrPrecision, 'fp32'>, calibration?: CalibrationInputs): Promise<Uint8Array> {
  const model = parseOnnxModel(source);
  constantsToInitializers(model.graph);
  foldScalarAffineIntoConv(model.graph);
  fuseHardSwish(model.graph);
  foldScalarAffineIntoNextConv(model.graph);
  foldScalarScaleIntoNextConv(model.graph);
  pruneInitializers(model.graph);
  if (precision === 'int8') {
    if (!calibration) throw new Error('int8 needs calibration inputs');
    upgradeOpset9To10(model);
    // The first convolution sees raw pixels: int8 there costs accuracy for little time.
    const first = quantizableConvs(model.graph)[0];
    const keepFloat = new Set(first ? [first.outputs[0]!] : []);
    const convs = quantizableConvs(model.graph, keepFloat);
    const ranges = await observeRanges(model, tensorsToCalibrate(convs), await calibration());
    quantizeConvsStatic(model, ranges, { keepFloat });
    pruneInitializers(model.graph);
  }
  return encodeOnnxModel(model);
}

/**
 * The derived model's bytes, from a cache file keyed by the source's hash when one was written
 * before (deriving the recogniser costs about a second, int8 calibration several).
 */
export async function derivedModelBytes(
  sourcePath: string,
  precision: Exclude<OcrPrecision, 'fp32'>,
  calibration?: CalibrationInputs,
  cacheDir = join(tmpdir(), 'vigil-onnx-variants'),
): Promise<Uint8Array> {
  const source = readFileSync(sourcePath);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const file = join(cacheDir, `${hash}-${precision}-v${PASSES_VERSION}.onnx`);
  try {
    return readFileSync(file);
  } catch {
    // not cached yet
  }
  const bytes = await deriveModel(source, precision, calibration);
  try {
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, file); // atomic: a concurrent reader sees the old state or the whole file
  } catch {
    // A read-only tmp only costs the derivation again next time.
  }
  return bytes;
}
