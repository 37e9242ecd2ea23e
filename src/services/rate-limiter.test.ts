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

  it.skipIf(skip)('lets no more than the limit through across a second\'s edge (a fixed window let 16 of 8/s through in 51 ms)', async () => {
    const limiter = make();
    const t0 = 20_000_000 + 990; // 10 ms before a whole second
    let allowed = 0;
    for (let i = 0; i < 16; i++) if ((await limiter.hit('edge', 8, 1000, t0 + (i * 51) / 15)) === 0) allowed++;
    expect(allowed).toBe(8);
  });

  it.skipIf(skip)('then admits a steady stream at the limit: one per 1/rate', async () => {
    const limiter = make();
    const t0 = 30_000_000;
    for (let i = 0; i < 8; i++) await limiter.hit('steady', 8, 1000, t0);
    const waits = [];
    for (let i = 1; i <= 4; i++) waits.push(await limiter.hit('steady', 8, 1000, t0 + i * 125));
    expect(waits).toEqual([0, 0, 0, 0]);
    expect(await limiter.hit('steady', 8, 1000, t0 + 500)).toBe(125);
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
