import { errors } from './errors.js';

/** A token bucket per key: `max` requests at once, refilled at `max` per `windowMs`. Fixed
 * windows let twice the limit through across a window's edge (16 calls of an 8/s limit in 51 ms);
 * a bucket never lets more than `max` through in any span shorter than the refill of one. The
 * embedded implementation is in memory; the distributed one (Redis) shares buckets between API
 * processes behind the same interface. */
export interface RateLimiter {
  /** Takes one request from `key`'s bucket; returns 0 when allowed, else the milliseconds until
   * the bucket holds one again. */
  hit(key: string, max: number, windowMs: number, now?: number): Promise<number>;
}

export interface Bucket {
  tokens: number;
  last: number;
}

/** The bucket refilled to `now` and one request taken from it when it can be: the rule both
 * limiters apply (Redis in Lua, the same arithmetic). */
export function takeToken(bucket: Bucket | undefined, max: number, windowMs: number, now: number): { bucket: Bucket; waitMs: number } {
  const rate = max / windowMs;
  const held = bucket ? Math.min(max, bucket.tokens + Math.max(0, now - bucket.last) * rate) : max;
  if (held >= 1) return { bucket: { tokens: held - 1, last: now }, waitMs: 0 };
  return { bucket: { tokens: held, last: now }, waitMs: Math.ceil((1 - held) / rate) };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket & { windowMs: number }>();

  async hit(key: string, max: number, windowMs: number, now = Date.now()): Promise<number> {
    if (this.buckets.size > 100_000) this.prune(now);
    const { bucket, waitMs } = takeToken(this.buckets.get(key), max, windowMs, now);
    this.buckets.set(key, { ...bucket, windowMs });
    return waitMs;
  }

  /** Buckets untouched for a whole refill are full again: forgetting them changes nothing. */
  private prune(now: number) {
    for (const [k, b] of this.buckets) if (now - b.last >= b.windowMs) this.buckets.delete(k);
  }
}

/** `perSecond` as a whole number of requests per window (0.5/s = 1 per 2 s). */
export function rateWindow(perSecond: number): { max: number; windowMs: number } {
  return perSecond >= 1 ? { max: Math.round(perSecond), windowMs: 1000 } : { max: 1, windowMs: Math.round(1000 / perSecond) };
}

/** Throws 429 (with Retry-After) when `key` is over `perSecond`. */
export async function enforceRate(limiter: RateLimiter, key: string, perSecond: number, message: string, code = 'rate_limited'): Promise<void> {
  const { max, windowMs } = rateWindow(perSecond);
  const waitMs = await limiter.hit(key, max, windowMs);
  if (waitMs > 0) throw errors.rateLimited(message, waitMs / 1000, code);
}
