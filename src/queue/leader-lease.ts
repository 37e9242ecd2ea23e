import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** One holder at a time among all processes sharing a Redis, for periodic work that should run
 * once per period cluster-wide (the offline sweep). The holder renews on each call; if it dies,
 * the lease expires after `ttlMs` and the next caller takes over. */
export class LeaderLease {
  private readonly id = randomUUID();

  constructor(private readonly redis: Redis, private readonly key: string, private readonly ttlMs: number) {}

  /** True when this process holds (or just took) the lease. */
  async acquire(): Promise<boolean> {
    // Renew only if we still hold it, else take it if free: one atomic script.
    const held = await this.redis.eval(
      `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
       if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
       return 0`,
      1, this.key, this.id, String(this.ttlMs),
    );
    return held === 1;
  }

  /** Lets another process take over at once (graceful shutdown). */
  async release(): Promise<void> {
    await this.redis.eval(`if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`, 1, this.key, this.id);
  }
}
