import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../storage/db/database.js';
import { BullJobRunner } from './bullmq-job-runner.js';
import { everyKind, tagged } from '../../test/helpers/jobs.js';
import { RetryLater, type JobContext, type JobHandlers } from './jobs.js';
import type { JobRunner } from './job-runner.js';
import { SqlJobQueue, SqlJobRunner } from './sql-job-queue.js';

/** The same cases against every runner: the SQL runner and the BullMQ runner (outbox relay), each
 * on SQLite, or on PostgreSQL with VIGIL_TEST_DB=postgres. */
const PG = process.env.VIGIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS = process.env.VIGIL_TEST_REDIS ?? 'redis://127.0.0.1:6379';
const onPostgres = process.env.VIGIL_TEST_DB === 'postgres';

async function redisReachable(): Promise<boolean> {
  const r = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
const hasRedis = await redisReachable();

/** A test's handler of every kind of job: it gets the job's tag (test/helpers/jobs.ts). */
type Handler = (tag: string, context: JobContext) => Promise<void>;
type Hook = (tag: string, error: Error, context: JobContext) => Promise<void>;
interface Hooks { onRetry?: Hook; onGiveUp?: Hook }
type TestRunner = JobRunner & { abandon(): Promise<void> };
type MakeRunner = (db: Db, queue: SqlJobQueue, handlers: JobHandlers, options: { concurrency: number; leaseMs: number; backoff: (n: number) => number }, prefix: string) => TestRunner & { close?(): Promise<void> };

let counter = 0;

async function openTestDb(): Promise<{ db: Db; drop(): Promise<void> }> {
  if (!onPostgres) {
    const db = openDatabase({ kind: 'sqlite', file: ':memory:' });
    await migrateToLatest(db);
    return { db, drop: () => db.destroy() };
  }
  const name = `vigil_q_${process.pid}_${++counter}`;
  const admin = new pg.Client({ connectionString: `${PG}/postgres` });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const db = openDatabase({ kind: 'postgres', url: `${PG}/${name}` } as Parameters<typeof openDatabase>[0]);
  await migrateToLatest(db);
  return {
    db,
    async drop() {
      await db.destroy();
      const c = new pg.Client({ connectionString: `${PG}/postgres` });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const backends: Array<{ name: string; skip: boolean; make: MakeRunner; cleanup?: (prefix: string) => Promise<void> }> = [
  {
    name: 'SQL runner',
    skip: false,
    make: (db, queue, handlers, o) => new SqlJobRunner(db, queue, handlers, { ...o, pollMs: 20 }),
  },
  {
    name: 'BullMQ runner',
    skip: !hasRedis,
    make: (db, queue, handlers, o, prefix) => {
      const runner = new BullJobRunner(db, handlers, { ...o, redisUrl: REDIS, queueName: 'jobs', prefix, pollMs: 100 });
      queue.onEnqueued(() => runner.relay.wake());
      return runner;
    },
    async cleanup(prefix) {
      const r = new Redis(REDIS);
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
    },
  },
];

for (const backend of backends) {
  describe.skipIf(backend.skip)(`job queue contract: ${backend.name} on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
    let db: Db;
    let drop: () => Promise<void>;
    let prefix = '';
    const runners: Array<TestRunner & { close?(): Promise<void> }> = [];
    afterEach(async () => {
      for (const r of runners.splice(0)) {
        await r.abandon();
        await r.close?.();
      }
      await drop();
      await backend.cleanup?.(prefix);
    });

    async function setup(run: Handler, options: { concurrency?: number; leaseMs?: number; backoff?: (n: number) => number; hooks?: Hooks } = {}) {
      ({ db, drop } = await openTestDb());
      prefix = `vigil-test-${process.pid}-${++counter}`;
      const queue = new SqlJobQueue(db);
      const handlers = everyKind({ run, ...options.hooks });
      const newRunner = () => {
        const r = backend.make(db, queue, handlers, { concurrency: options.concurrency ?? 2, leaseMs: options.leaseMs ?? 60_000, backoff: options.backoff ?? (() => 10) }, prefix);
        runners.push(r);
        return r;
      };
      return { queue, runner: newRunner(), newRunner };
    }

    const jobRows = () => db.selectFrom('jobs').select(['status', 'attempts', 'last_error']).orderBy('id').execute();

    it('runs every job once, in order, and purges finished jobs', async () => {
      const seen: number[] = [];
      const { queue, runner } = await setup(async (p) => void seen.push(Number(p)), { concurrency: 1 });
      for (const n of [1, 2, 3]) await queue.enqueue('camera.analyze', tagged('camera.analyze', n));
      runner.start();
      await runner.drain(10_000);
      expect(seen).toEqual([1, 2, 3]);
      expect(await jobRows()).toEqual([1, 2, 3].map(() => ({ status: 'done', attempts: 1, last_error: null })));
      expect(await runner.purgeFinished(Date.now() + 1)).toBe(3);
      expect(await jobRows()).toEqual([]);
    });

    it('never runs a job enqueued in a transaction that rolled back', async () => {
      const seen: string[] = [];
      const { queue, runner } = await setup(async (p) => void seen.push(p));
      runner.start();
      await expect(db.transaction().execute(async (trx) => {
        await queue.within(trx).enqueue('camera.analyze', tagged('camera.analyze', 'rolled-back'));
        throw new Error('upload failed after the job was enqueued');
      })).rejects.toThrow('upload failed');
      await db.transaction().execute((trx) => queue.within(trx).enqueue('camera.analyze', tagged('camera.analyze', 'committed')));
      await runner.drain(10_000);
      await new Promise((r) => setTimeout(r, 200)); // room for a wrongly relayed job to run
      expect(seen).toEqual(['committed']);
      expect(await jobRows()).toEqual([{ status: 'done', attempts: 1, last_error: null }]);
    });

    it('retries a failing job after its backoff and gives up after max attempts', async () => {
      const at: number[] = [];
      const retries: number[] = [];
      const givenUp: number[] = [];
      const { queue, runner } = await setup(async (_p, c) => {
        at.push(Date.now());
        throw new Error(`boom ${c.attempt}`);
      }, {
        backoff: (n) => 150 * n,
        hooks: { onRetry: async (_p, _e, c) => void retries.push(c.attempt), onGiveUp: async (_p, _e, c) => void givenUp.push(c.attempt) },
      });
      await queue.enqueue('mail.send', tagged('mail.send', ''), { maxAttempts: 3 });
      runner.start();
      await runner.drain(10_000, 5_000);
      expect(at).toHaveLength(3);
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(140);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(290);
      expect(retries).toEqual([1, 2]);
      expect(givenUp).toEqual([3]);
      expect(await jobRows()).toEqual([{ status: 'failed', attempts: 3, last_error: 'boom 3' }]);
    });

    it('RetryLater reschedules after the chosen delay without spending an attempt', async () => {
      const at: number[] = [];
      const { queue, runner } = await setup(async () => {
        at.push(Date.now());
        if (at.length < 3) throw new RetryLater(100);
      });
      await queue.enqueue('webhook.deliver', tagged('webhook.deliver', ''), { maxAttempts: 1 });
      runner.start();
      await runner.drain(10_000, 5_000);
      expect(at).toHaveLength(3);
      expect(at[2]! - at[0]!).toBeGreaterThanOrEqual(190);
      expect(await jobRows()).toEqual([{ status: 'done', attempts: 1, last_error: null }]);
    });

    it('runs a job again elsewhere when its worker dies mid-job, and its effect is stored once', async () => {
      let runs = 0;
      let firstStarted!: () => void;
      const started = new Promise<void>((r) => (firstStarted = r));
      const { queue, runner, newRunner } = await setup(async (p) => {
        runs++;
        if (runs === 1) {
          firstStarted();
          return new Promise<void>(() => {}); // the worker dies during this run
        }
        const key = `effect:${p}`;
        // Idempotent like every handler: a re-run finds the effect and stores nothing twice.
        await db.insertInto('settings').values({ key, value: String(runs) }).onConflict((oc) => oc.column('key').doNothing()).execute();
      }, { leaseMs: 1000 });
      await queue.enqueue('camera.analyze', tagged('camera.analyze', 'upload-1'));
      runner.start();
      await started;
      await runner.abandon(); // as SIGKILL: no completion, the lease or lock is left to expire
      const survivor = newRunner();
      survivor.start();
      await survivor.drain(15_000);
      expect(runs).toBe(2);
      expect(await db.selectFrom('settings').select(['key', 'value']).where('key', 'like', 'effect:%').execute()).toEqual([{ key: 'effect:upload-1', value: '2' }]);
      expect(await jobRows()).toEqual([{ status: 'done', attempts: expect.any(Number), last_error: null }]);
    }, 20_000);

    it('runs analyses while deliveries hang: each lane has its own slots', async () => {
      const seen: string[] = [];
      let release!: () => void;
      const hanging = new Promise<void>((r) => (release = r));
      const { queue, runner } = await setup(async (p) => {
        const id = p;
        if (id.startsWith('hang')) await hanging; // a webhook target that never answers
        seen.push(id);
      }, { concurrency: 1 });
      await queue.enqueue('webhook.deliver', tagged('webhook.deliver', 'hang-1'));
      await queue.enqueue('webhook.deliver', tagged('webhook.deliver', 'hang-2'));
      await queue.enqueue('camera.analyze', tagged('camera.analyze', 'analysis-1'));
      await queue.enqueue('camera.analyze', tagged('camera.analyze', 'analysis-2'));
      runner.start();
      const deadline = Date.now() + 5000;
      while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // Both analyses ran while the single delivery slot was taken by a hanging target.
      expect(seen).toEqual(['analysis-1', 'analysis-2']);
      release();
      await runner.drain(10_000);
      expect(seen.slice(2).sort()).toEqual(['hang-1', 'hang-2']);
    });

    it('stops gracefully: a job in flight finishes, nothing new starts until started again', async () => {
      const seen: string[] = [];
      const { queue, runner, newRunner } = await setup(async (p) => {
        const id = p;
        if (id === 'slow') await new Promise((r) => setTimeout(r, 300));
        seen.push(id);
      });
      await queue.enqueue('camera.analyze', tagged('camera.analyze', 'slow'));
      runner.start();
      while ((await jobRows())[0]?.status !== 'running') await new Promise((r) => setTimeout(r, 10));
      await runner.stop();
      expect(seen).toEqual(['slow']);
      expect((await jobRows())[0]?.status).toBe('done');
      await queue.enqueue('camera.analyze', tagged('camera.analyze', 'after-stop'));
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toEqual(['slow']);
      const restarted = newRunner();
      restarted.start();
      await restarted.drain(10_000);
      expect(seen).toEqual(['slow', 'after-stop']);
    });
  });
}

describe.skipIf(!hasRedis)(`BullMQ outbox relay on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('runs a row once although two relays handed it to BullMQ (one died before marking it relayed)', async () => {
    const { db, drop } = await openTestDb();
    const prefix = `vigil-test-${process.pid}-${++counter}`;
    let runs = 0;
    const handlers = everyKind({ run: async () => void runs++ });
    const runner = new BullJobRunner(db, handlers, { redisUrl: REDIS, queueName: 'jobs', prefix, concurrency: 2, pollMs: 100 });
    try {
      await new SqlJobQueue(db).enqueue('camera.analyze', tagged('camera.analyze', 1));
      expect(await runner.relay.relayOnce()).toBe(1);
      await db.updateTable('jobs').set({ locked_by: null }).execute(); // the first relay's mark never landed
      expect(await runner.relay.relayOnce()).toBe(1);
      runner.start();
      await runner.drain(10_000);
      await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to run
      expect(runs).toBe(1);
      expect(await db.selectFrom('jobs').select(['status', 'attempts']).execute()).toEqual([{ status: 'done', attempts: 1 }]);
    } finally {
      await runner.close();
      await drop();
      await backends[1]!.cleanup!(prefix);
    }
  });
});

describe.skipIf(!hasRedis)(`BullMQ after Redis lost its data, on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('runs the relayed jobs Redis no longer has, once, a lease later', async () => {
    const { db, drop } = await openTestDb();
    const prefix = `vigil-test-${process.pid}-${++counter}`;
    const seen: number[] = [];
    const handlers = everyKind({ run: async (p) => void seen.push(Number(p)) });
    const runner = new BullJobRunner(db, handlers, { redisUrl: REDIS, queueName: 'jobs', prefix, concurrency: 2, pollMs: 100, leaseMs: 1000 });
    try {
      const queue = new SqlJobQueue(db);
      for (const n of [1, 2]) await queue.enqueue('camera.analyze', tagged('camera.analyze', n));
      expect(await runner.relay.relayOnce()).toBe(2);
      await backends[1]!.cleanup!(prefix); // Redis restarted without persistence
      runner.start();
      await runner.drain(10_000);
      expect(seen.sort()).toEqual([1, 2]);
      expect(await db.selectFrom('jobs').select('status').execute()).toEqual([{ status: 'done' }, { status: 'done' }]);
    } finally {
      await runner.close();
      await drop();
      await backends[1]!.cleanup!(prefix);
    }
  });
});

describe.skipIf(!hasRedis)(`BullMQ poison job, on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('fails a job that keeps taking its worker down, once, and tells the handler', async () => {
    const { db, drop } = await openTestDb();
    const prefix = `vigil-test-${process.pid}-${++counter}`;
    let runs = 0;
    const givenUp: string[] = [];
    let started!: () => void;
    const firstRun = new Promise<void>((r) => (started = r));
    const handlers = everyKind({
      run: async () => {
        runs++;
        started();
        return new Promise<void>(() => {}); // never returns: its worker dies
      },
      onGiveUp: async (_p, err) => void givenUp.push(err.message),
    });
    const options = { redisUrl: REDIS, queueName: 'jobs', prefix, concurrency: 1, pollMs: 100, leaseMs: 1000, maxStalls: 0 };
    const first = new BullJobRunner(db, handlers, options);
    const second = new BullJobRunner(db, handlers, options);
    try {
      await new SqlJobQueue(db).enqueue('camera.analyze', tagged('camera.analyze', ''));
      first.start();
      await firstRun;
      await first.abandon();
      second.start();
      await second.drain(15_000);
      expect(runs).toBe(1);
      expect(givenUp).toEqual(['job stalled more than allowable limit']);
      expect(await db.selectFrom('jobs').select(['status', 'last_error']).execute()).toEqual([{ status: 'failed', last_error: 'job stalled more than allowable limit' }]);
    } finally {
      await first.close();
      await second.close();
      await drop();
      await backends[1]!.cleanup!(prefix);
    }
  }, 20_000);
});
