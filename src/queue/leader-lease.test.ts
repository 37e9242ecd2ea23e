import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { LeaderLease } from './leader-lease.js';

const REDIS = process.env.VIGIL_TEST_REDIS ?? 'redis://127.0.0.1:6379';
const probe = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 });
const hasRedis = await probe.connect().then(() => true, () => false);

describe.skipIf(!hasRedis)('leader lease', () => {
  const key = `vigil-test-leader-${process.pid}`;
  afterAll(async () => {
    await probe.del(key);
    probe.disconnect();
  });

  it('has one holder; another takes over when it releases or its lease runs out', async () => {
    const a = new LeaderLease(probe, key, 300);
    const b = new LeaderLease(probe, key, 300);
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect(await a.acquire()).toBe(true); // renews
    await a.release();
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
    await new Promise((r) => setTimeout(r, 400)); // b died without releasing
    expect(await a.acquire()).toBe(true);
  });
});
