import { errors } from './errors.js';

/** Counts requests per key in fixed windows. The embedded implementation is in memory; the
 * distributed one (Redis) shares counters between API processes behind the same interface. */
export interface RateLimiter {
  /** Counts a hit; returns 0 when allowed, else the milliseconds until the next window. */
  hit(key: string, max: number, windowMs: number, now?: number): Promise<number>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  async hit(key: string, max: number, windowMs: number, now = Date.now()): Promise<number> {
    const start = now - (now % windowMs);
    const w = this.windows.get(key);
    if (!w || w.start !== start) {
      if (this.windows.size > 100_000) this.prune(start);
      this.windows.set(key, { start, count: 1 });
      return 0;
    }
    w.count++;
    return w.count <= max ? 0 : start + windowMs - now;
  }

  private prune(currentStart: number) {
    for (const [k, w] of this.windows) if (w.start < currentStart) this.windows.delete(k);
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
