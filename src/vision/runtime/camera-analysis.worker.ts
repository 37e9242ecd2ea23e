import { analyzeWithPrepared, NotComparableError, prepareReference, type ImageFeatures } from '../camera-health/index.js';
import type { AnalysisOutcome } from '../camera-health/types.js';

/** Prepared references of the cameras this thread served lately: a reference changes rarely,
 * and preparing it costs as much as the rest of the analysis. */
const CACHE_SIZE = 512;
const prepared = new Map<string, ImageFeatures>();

async function referenceFeatures(key: string, bytes: Uint8Array): Promise<ImageFeatures> {
  const hit = prepared.get(key);
  if (hit) {
    prepared.delete(key);
    prepared.set(key, hit); // most recently used last
    return hit;
  }
  const features = await prepareReference(toBuffer(bytes));
  prepared.set(key, features);
  if (prepared.size > CACHE_SIZE) prepared.delete(prepared.keys().next().value!);
  return features;
}

/** Worker-thread entry: one camera analysis. Buffers arrive as Uint8Arrays (structured clone). */
export default async function analyze(task: { referenceKey: string; reference: Uint8Array; image: Uint8Array }): Promise<AnalysisOutcome> {
  try {
    const ref = await referenceFeatures(task.referenceKey, task.reference);
    const { scores } = await analyzeWithPrepared(ref, toBuffer(task.image));
    return { kind: 'scores', scores };
  } catch (err) {
    if (err instanceof NotComparableError) return { kind: 'not_comparable', reason: err.message };
    throw err;
  }
}

function toBuffer(u: Uint8Array): Buffer {
  return Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}
