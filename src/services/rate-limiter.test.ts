import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, enforceRate, type RateLimiter } from './rate-limiter.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

const redisUrl = process.env.VIGIL_TEST_REDIS ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
const redisUp = await redis.connect().then(() => true, () => false);
afterAll(() => redis.disconnect());

const limiters: Array<[string, () => RateLimiter, boolean]> = [
  ['memory', () => new MemoryRateLimiter(), false],
  ['redis', () => new RedisRateLimiter(redis, `vigil:test:${process.pid}:${Date.now()}:`), !redisUp],
];

describe.each(limiters)('%s rate limiter', (_name, make, skip) => {
  it.skipIf(skip)('allows max hits per window, then says how long to wait', async () => {
    const limiter = make();
    const t0 = 10_000_000;
    expect(await limiter.hit('k', 2, 1000, t0)).toBe(0);
    expect(await limiter.hit('k', 2, 1000, t0 + 10)).toBe(0);
    const wait = await limiter.hit('k', 2, 1000, t0 + 20);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1000);
    expect(await limiter.hit('other', 2, 1000, t0 + 20)).toBe(0);
  });

  it.skipIf(skip)('enforceRate throws 429 with Retry-After', async () => {
    const limiter = make();
    await enforceRate(limiter, 'e', 1, 'slow down');
    await expect(enforceRate(limiter, 'e', 1, 'slow down')).rejects.toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
  });
});

describe('shared counters', () => {
  it.skipIf(!redisUp)('two API processes (two limiters on one Redis) share one budget', async () => {
    const prefix = `vigil:test:shared:${process.pid}:${Date.now()}:`;
    const a = new RedisRateLimiter(redis, prefix);
    const b = new RedisRateLimiter(new Redis(redisUrl), prefix);
    const now = Date.now();
    const results = [await a.hit('token', 3, 60_000, now), await b.hit('token', 3, 60_000, now), await a.hit('token', 3, 60_000, now), await b.hit('token', 3, 60_000, now)];
    expect(results.filter((r) => r === 0)).toHaveLength(3);
    (b as unknown as { redis: Redis }).redis.disconnect();
  });
});
