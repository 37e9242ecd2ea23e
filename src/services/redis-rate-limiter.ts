import type { Redis } from 'ioredis';
import type { RateLimiter } from './rate-limiter.js';

/** Counts one hit in the window and returns [count, ms left in the window], atomically. */
const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { n, redis.call('PTTL', KEYS[1]) }
`;

/** Fixed-window counters shared by every API process through Redis. */
export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis, private readonly prefix = 'vigil:rate:') {}

  async hit(key: string, max: number, windowMs: number, now = Date.now()): Promise<number> {
    const windowKey = `${this.prefix}${key}:${Math.floor(now / windowMs)}`;
    const [count, ttl] = (await this.redis.eval(HIT, 1, windowKey, String(windowMs))) as [number, number];
    return count <= max ? 0 : Math.max(1, ttl);
  }
}
