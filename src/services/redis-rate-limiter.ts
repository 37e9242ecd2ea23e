import type { Redis } from 'ioredis';
import type { RateLimiter } from './rate-limiter.js';

/** takeToken (rate-limiter.ts) in Lua, atomically: refill the bucket to ARGV[3] (now), take one
 * request when it holds one, and return the milliseconds to wait otherwise (0 when allowed). A
 * bucket untouched for two refills expires: it would be full. */
const TAKE = `
local max, windowMs, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local rate = max / windowMs
local b = redis.call('HMGET', KEYS[1], 'tokens', 'last')
local held = max
if b[1] then held = math.min(max, tonumber(b[1]) + math.max(0, now - tonumber(b[2])) * rate) end
local wait = 0
if held >= 1 then held = held - 1 else wait = math.ceil((1 - held) / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(held), 'last', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(2 * windowMs))
return wait
`;

/** Token buckets shared by every API process through Redis. */
export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis, private readonly prefix = 'vigil:rate:') {}

  async hit(key: string, max: number, windowMs: number, now = Date.now()): Promise<number> {
    const wait = await this.redis.eval(TAKE, 1, `${this.prefix}${key}`, String(max), String(windowMs), String(now));
    return Number(wait);
  }
}
