import type { UsageFamily } from '../../domain/usage.js';
import { decodeForRecognition, ImageDecodeError } from '../../vision/image/decode.js';
import { AppError, errors } from '../errors.js';
import { type Metrics, NO_METRICS } from '../metrics.js';
import { EngineBusyError } from '../../vision/runtime/worker-pool.js';

/** What a caller is told to wait when the engine's queue is full: a few reads' time. */
const BUSY_RETRY_SECONDS = 2;
import type { UsageService } from '../usage.service.js';

/** One engine call as every recognition family makes it: the image is validated before the
 * call is counted (a bad image costs the caller nothing), the call is counted against the
 * month's allowance (403 past it), and an engine failure is refunded and answered 503. */
export async function countedRecognition<T>(
  usage: UsageService,
  call: { accountId: number; family: UsageFamily; image: Buffer; maxPixels: number },
  run: () => Promise<T>,
  metrics: Metrics = NO_METRICS,
): Promise<{ value: T; ms: number }> {
  // Recognition reads a photo cut short when most of it decodes (decode.ts, MIN_DECODED_SHARE).
  await decodeForRecognition(call.image, { maxPixels: call.maxPixels, maxSide: 32, grayscale: true });
  const refund = await usage.takeCall(call.accountId, call.family);
  const started = performance.now();
  try {
    const value = await run();
    const ms = performance.now() - started;
    metrics.recognition(call.family, 'read', ms / 1000);
    return { value, ms: Math.round(ms * 1000) / 1000 };
  } catch (err) {
    await refund();
    metrics.recognition(call.family, err instanceof EngineBusyError ? 'busy' : 'failed');
    if (err instanceof ImageDecodeError) throw err;
    if (err instanceof EngineBusyError) {
      throw new AppError(503, 'engine_busy', 'The recognition engine is busy: too many images are waiting to be read. Try again in a few seconds.', { 'retry-after': String(BUSY_RETRY_SECONDS) });
    }
    throw errors.unavailable('Prediction service error: the image could not be processed. Try again.', 'prediction_failed');
  }
}
