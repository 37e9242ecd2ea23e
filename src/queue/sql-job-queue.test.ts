import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../storage/db/database.js';
import { everyKind, tagged } from '../../test/helpers/jobs.js';
import { RetryLater } from './jobs.js';
import { SqlJobQueue, SqlJobRunner } from './sql-job-queue.js';

describe('SQL job queue', () => {
  let db: Db;
  let runner: SqlJobRunner | undefined;
  afterEach(async () => {
    await runner?.stop();
    await db.destroy();
  });

  async function setup(run: (tag: string, attempt: number) => Promise<void>, concurrency = 2) {
    db = openDatabase({ kind: 'sqlite', file: ':memory:' });
    await migrateToLatest(db);
    const queue = new SqlJobQueue(db);
    const handlers = everyKind({ run: (tag, c) => run(tag, c.attempt) });
    runner = new SqlJobRunner(db, queue, handlers, { concurrency, backoff: () => 10, pollMs: 20 });
    return queue;
  }

  it('runs every job once, in order of due time', async () => {
    const seen: number[] = [];
    const queue = await setup(async (p) => void seen.push(Number(p)), 1);
    for (const n of [1, 2, 3]) await queue.enqueue('camera.analyze', tagged('camera.analyze', n));
    runner!.start();
    await runner!.drain();
    expect(seen).toEqual([1, 2, 3]);
    const rows = await db.selectFrom('jobs').select(['status', 'attempts']).execute();
    expect(rows).toEqual([{ status: 'done', attempts: 1 }, { status: 'done', attempts: 1 }, { status: 'done', attempts: 1 }]);
  });

  it('retries a failing job with backoff and marks it failed after max attempts', async () => {
    const attempts: number[] = [];
    const queue = await setup(async (_p, attempt) => {
      attempts.push(attempt);
      throw new Error(`boom ${attempt}`);
    });
    await queue.enqueue('mail.send', tagged('mail.send', ''), { maxAttempts: 3 });
    runner!.start();
    await runner!.drain(5000, 1000);
    expect(attempts).toEqual([1, 2, 3]);
    expect(await db.selectFrom('jobs').select(['status', 'last_error']).executeTakeFirst()).toEqual({ status: 'failed', last_error: 'boom 3' });
  });

  it('RetryLater reschedules without spending an attempt', async () => {
    let calls = 0;
    const queue = await setup(async () => {
      if (++calls < 3) throw new RetryLater(5);
    });
    await queue.enqueue('mail.send', tagged('mail.send', ''), { maxAttempts: 1 });
    runner!.start();
    await runner!.drain(5000, 1000);
    expect(calls).toBe(3);
    expect(await db.selectFrom('jobs').select(['status', 'attempts']).executeTakeFirst()).toEqual({ status: 'done', attempts: 1 });
  });

  it('takes over a job whose lease expired (its worker died) and purges old finished jobs', async () => {
    const seen: string[] = [];
    const queue = await setup(async (p) => void seen.push(p));
    const id = await queue.enqueue('camera.analyze', tagged('camera.analyze', 'orphan'));
    await db.updateTable('jobs').set({ status: 'running', attempts: 1, locked_until: Date.now() - 1, locked_by: 'dead-worker' }).where('id', '=', id).execute();
    runner!.start();
    await runner!.drain();
    expect(seen).toEqual(['orphan']);
    expect(await runner!.purgeFinished(Date.now() + 1)).toBe(1);
    expect(await db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('refuses a payload that is not its kind\'s at enqueue, and stores nothing', async () => {
    const queue = await setup(async () => undefined);
    // A caller that escaped the types (JSON from elsewhere): the schema still stands.
    const loose: unknown = { cameraId: 1, imageId: 'seven', uploadedAt: 0 };
    await expect(queue.enqueue('camera.analyze', loose as never)).rejects.toThrow('invalid camera.analyze job payload: imageId');
    expect(await db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('fails a stored job whose payload no longer fits its kind, without calling its handler', async () => {
    const seen: string[] = [];
    const queue = await setup(async (p) => void seen.push(p));
    const id = await queue.enqueue('alert.dispatch', tagged('alert.dispatch', 'edited'), { maxAttempts: 1 });
    await db.updateTable('jobs').set({ payload: '{"alert":7}' }).where('id', '=', id).execute();
    runner!.start();
    await runner!.drain(5000, 1000);
    expect(seen).toEqual([]);
    expect(await db.selectFrom('jobs').select(['status', 'last_error']).executeTakeFirst())
      .toEqual({ status: 'failed', last_error: expect.stringMatching(/^invalid alert\.dispatch job payload: alertId/) });
  });
});
