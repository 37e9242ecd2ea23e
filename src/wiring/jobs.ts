import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config } from '../config/config.js';
import { BullJobRunner } from '../queue/bullmq-job-runner.js';
import type { JobRunner } from '../queue/job-runner.js';
import { assertHandlersComplete, type JobHandlers } from '../queue/jobs.js';
import { LeaderLease } from '../queue/leader-lease.js';
import { type SqlJobQueue, SqlJobRunner } from '../queue/sql-job-queue.js';
import { countingLimiter, type Metrics } from '../services/metrics.js';
import { MemoryRateLimiter, type RateLimiter } from '../services/rate-limiter.js';
import { RedisRateLimiter } from '../services/redis-rate-limiter.js';
import type { Db } from '../storage/db/database.js';
import type { SettingsRepository } from '../storage/repositories/settings.repository.js';
import type { OfflineSweepService } from '../services/camera-monitoring/offline.service.js';

export interface Jobs {
  runner: JobRunner;
  rateLimiter: RateLimiter;
  /** Readiness checks this part adds (Redis, when configured). */
  readiness: Array<[string, () => Promise<void>]>;
  /** With Redis, which worker process runs the periodic sweep (one per cluster). */
  sweepLeader?: (ttlMs: number) => LeaderLease;
  close(): Promise<void>;
}

export interface JobsDeps {
  config: Pick<Config, 'redisUrl' | 'workers'>;
  db: Db;
  queue: SqlJobQueue;
  handlers: JobHandlers;
  settings: SettingsRepository;
  metrics: Metrics;
  retryBackoff?: (attempt: number) => number;
}

/** The job runner and the rate limiter. With Redis, rate limits are shared by every API process
 * and jobs run on BullMQ; embedded, limits live in memory and jobs are claimed from the jobs table. */
export async function wireJobs(d: JobsDeps): Promise<Jobs> {
  assertHandlersComplete(d.handlers);
  const runnerOptions = {
    concurrency: d.config.workers.threads + 2,
    leaseMs: d.config.workers.jobLeaseSeconds * 1000,
    backoff: d.retryBackoff,
    onError: (err: unknown, kind: string) => console.error(`[vigil] job ${kind} failed:`, err instanceof Error ? err.message : err),
  };
  if (!d.config.redisUrl) {
    return { runner: new SqlJobRunner(d.db, d.queue, d.handlers, runnerOptions), rateLimiter: countingLimiter(new MemoryRateLimiter(), d.metrics), readiness: [], close: async () => undefined };
  }
  const redis = new Redis(d.config.redisUrl, { maxRetriesPerRequest: 2 });
  // One BullMQ queue per installation (its database), so installations may share a Redis.
  const queueName = await d.settings.getOrCreate('job_queue_name', () => `jobs-${randomBytes(6).toString('hex')}`);
  const bull = new BullJobRunner(d.db, d.handlers, { ...runnerOptions, redisUrl: d.config.redisUrl, queueName });
  // The process that enqueued relays its own jobs as soon as they commit (any role); workers
  // also poll the outbox for rows whose producer died before relaying them.
  d.queue.onEnqueued(() => bull.relay.wake());
  return {
    runner: bull,
    rateLimiter: countingLimiter(new RedisRateLimiter(redis), d.metrics),
    readiness: [['redis', async () => void (await redis.ping())]],
    sweepLeader: (ttlMs) => new LeaderLease(redis, `vigil:${queueName}:sweep-leader`, ttlMs),
    async close() {
      await bull.close();
      redis.disconnect();
    },
  };
}

/** The background side of a process (roles all and worker): the job runner, and a timer that
 * marks silent cameras offline and purges old finished jobs. */
export function backgroundWorkers(d: { config: Pick<Config, 'camera'>; runner: JobRunner; offline: OfflineSweepService; sweepLeader?: (ttlMs: number) => LeaderLease }) {
  let timer: NodeJS.Timeout | undefined;
  let leader: LeaderLease | undefined;
  return {
    start(): void {
      if (timer) return;
      d.runner.start();
      // Check for silent cameras several times per offline period (at most once a minute).
      const every = Math.min(60_000, Math.max(1000, (d.config.camera.offlineAfterSeconds * 1000) / 4));
      // Every worker may sweep safely (a camera is marked by one conditional update); with Redis
      // one leader does it, and another takes over within three periods if it dies.
      leader = d.sweepLeader?.(every * 3);
      timer = setInterval(() => {
        void (async () => {
          if (leader && !(await leader.acquire())) return;
          await d.offline.sweep().catch((err) => console.error('[vigil] offline sweep failed:', err));
          await d.runner.purgeFinished(Date.now() - 86_400_000).catch((err) => console.error('[vigil] job purge failed:', err));
        })().catch((err) => console.error('[vigil] sweep leader election failed:', err instanceof Error ? err.message : err));
      }, every);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (!timer) return;
      clearInterval(timer);
      await leader?.release().catch(() => {});
      await d.runner.stop();
    },
  };
}
