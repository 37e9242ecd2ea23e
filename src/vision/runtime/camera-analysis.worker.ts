import { analyzeAgainstReference, NotComparableError } from '../camera-health/index.js';
import type { AnalysisOutcome } from '../../services/camera-monitoring/camera-analyzer.port.js';

/** Worker-thread entry: one camera analysis. Buffers arrive as Uint8Arrays (structured clone). */
export default async function analyze({ reference, image }: { reference: Uint8Array; image: Uint8Array }): Promise<AnalysisOutcome> {
  try {
    const { scores } = await analyzeAgainstReference(toBuffer(reference), toBuffer(image));
    return { kind: 'scores', scores };
  } catch (err) {
    if (err instanceof NotComparableError) return { kind: 'not_comparable', reason: err.message };
    throw err;
  }
}

function toBuffer(u: Uint8Array): Buffer {
  return Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}
