import type { AnomalyScores } from '../../domain/camera-health.js';
import { extractFeatures, type ImageFeatures } from './features.js';
import { scoreAgainst } from './scores.js';

export { NotComparableError, extractFeatures as prepareReference, type ImageFeatures } from './features.js';
export { scoreAgainst } from './scores.js';

/** Scores an image against a prepared reference (see prepareReference). */
export async function analyzeWithPrepared(reference: ImageFeatures, image: Buffer): Promise<{ scores: AnomalyScores }> {
  const { scores } = scoreAgainst(reference, await extractFeatures(image));
  return { scores };
}

/** Four scores in 0..1 for `image` against the camera's `reference`. Throws NotComparableError
 * when the two cannot be compared (shape, size). */
export async function analyzeAgainstReference(reference: Buffer, image: Buffer): Promise<{ scores: AnomalyScores }> {
  const [ref, img] = await Promise.all([extractFeatures(reference), extractFeatures(image)]);
  const { scores } = scoreAgainst(ref, img);
  return { scores };
}
