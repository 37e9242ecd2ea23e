import type { AnomalyScores } from '../../domain/camera-health.js';

/** Compares an upload with the camera's reference image. Implemented by a worker-thread pool
 * (vision/runtime) so analysis never runs on the HTTP event loop. */
export interface CameraAnalyzer {
  /** `referenceKey` names the reference image (its id): analysers may cache what they prepared
   * from it, since a camera's reference changes rarely. */
  analyze(reference: { key: string; bytes: Buffer }, image: Buffer): Promise<AnalysisOutcome>;
}

export type AnalysisOutcome =
  | { kind: 'scores'; scores: AnomalyScores }
  /** The image decodes but cannot be compared with the reference (aspect ratio, size). */
  | { kind: 'not_comparable'; reason: string };
