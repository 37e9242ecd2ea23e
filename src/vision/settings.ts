import { availableParallelism } from 'node:os';
import { workerData } from 'node:worker_threads';
import { parseChoice } from '../domain/choice.js';
import type { OcrEngineOptions } from './ocr/ocr-engine.js';
import type { PlateFinder } from './plates/plate-finder.js';
import type { PlateLineReader } from './plates/plate-line-reader.js';
import type { PlateSearch } from './plates/plate-search.js';
import type { PlateVehicles } from './plates/plate-vehicles.js';
import type { StackReaderChoice } from './ocr/stack-reader.js';
import type { IdentifierReaderChoice } from './ocr/identifier-reader.js';
import { DEFAULT_OCR_PRECISION, type OcrPrecision } from './runtime/model-variants.js';

/** What the vision workers are told by the validated config (src/config/config.ts), handed to
 * each pool's threads as worker data: no vision module reads the environment itself. */
export interface VisionSettings {
  /** onnxruntime intra-op threads per session (INFERENCE_THREADS). */
  inferenceThreads: number;
  /** Graph variant of the PP-OCR detector and recogniser (OCR_PRECISION). */
  ocrPrecision: OcrPrecision;
  /** Recogniser sessions on threads of their own per worker (OCR_RECOGNIZER_THREADS). */
  ocrRecognizerThreads: number;
  /** How far regular plate reading looks after a sure plate (PLATE_SEARCH). */
  plateSearch: PlateSearch;
  /** What reads plate numbers (PLATE_READER). */
  plateReader: PlateLineReader;
  /** What finds plates in a photo (PLATE_DETECTOR). */
  plateDetector: PlateFinder;
  /** When plate calls look for vehicles (PLATE_VEHICLES). */
  plateVehicles: PlateVehicles;
  /** What reads columns of stacked characters in text photos (STACK_READER). */
  stackReader: StackReaderChoice;
  /** What reads the lines of trailer IDs and VINs that lie flat (IDENTIFIER_READER). */
  identifierReader: IdentifierReaderChoice;
  /** Model buffers kept between runs for speed, or handed back for memory (INFERENCE_MEMORY). */
  inferenceMemory: InferenceMemory;
}

/** `arena` (default): each model session keeps its largest buffers for the next run. `lean`:
 * they go back after every run (see OnnxSessionOptions.memoryArena). */
export type InferenceMemory = 'arena' | 'lean';
export const INFERENCE_MEMORY: readonly InferenceMemory[] = ['arena', 'lean'];

/** Whether model sessions keep their memory arena under this setting (unset: the default, arena). */
export const keepsMemoryArena = (memory: InferenceMemory | undefined): boolean => memory !== 'lean';

/** INFERENCE_MEMORY's value: unset or empty is `arena`. */
export const parseInferenceMemory = (value: string | undefined): InferenceMemory => parseChoice('INFERENCE_MEMORY', INFERENCE_MEMORY, 'arena', value);

/** The settings of an unconfigured process: the config's defaults. */
export function defaultVisionSettings(): VisionSettings {
  return { inferenceThreads: availableParallelism(), ocrPrecision: DEFAULT_OCR_PRECISION, ocrRecognizerThreads: 0, plateSearch: 'every-plate', plateReader: 'trained', plateDetector: 'trained', plateVehicles: 'asked', stackReader: 'trained', identifierReader: 'trained', inferenceMemory: 'arena' };
}

/** The OCR engine's options these settings ask for (every worker that loads the engine). */
export function ocrEngineOptions(s: VisionSettings): OcrEngineOptions {
  return { intraOpNumThreads: s.inferenceThreads, precision: s.ocrPrecision, recognizerThreads: s.ocrRecognizerThreads, memoryArena: keepsMemoryArena(s.inferenceMemory) };
}

/** In a thread of a vision pool (createWorkerPool), the settings its pool was given; on any
 * other thread (a test calling a worker's entry directly), the defaults. */
export function workerVisionSettings(): VisionSettings {
  return (workerData as { settings?: VisionSettings } | null)?.settings ?? defaultVisionSettings();
}
