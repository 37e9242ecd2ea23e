import type { Kysely } from 'kysely';
import type { Database } from '../storage/db/schema.js';

/** What a process needs from whichever runner executes its jobs (SQL leases or BullMQ). */
export interface JobRunner {
  start(): void;
  /** Stops taking jobs and waits for the jobs in flight to finish (graceful shutdown). */
  stop(): Promise<void>;
  /** Resolves when no job is running or due within `horizonMs` (tests and benchmarks use it;
   * jobs scheduled further ahead, such as alerts waiting for their window, are left). */
  drain(timeoutMs?: number, horizonMs?: number): Promise<void>;
  /** Deletes finished jobs older than `before` so the table stays small over years. */
  purgeFinished(before: number): Promise<number>;
}

/** Jobs still to do: queued and due within `horizonMs`, or running. The jobs table is the
 * record of every job in both modes, so this answers for every runner. */
export async function countUnfinishedJobs(db: Kysely<Database>, horizonMs: number): Promise<number> {
  const due = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', Date.now() + horizonMs)]), eb('status', '=', 'running')]))
    .executeTakeFirstOrThrow();
  return Number(due.n);
}

/** Failed jobs are kept a week longer than done ones, for inspection. */
export async function purgeFinishedJobs(db: Kysely<Database>, before: number): Promise<number> {
  const res = await db
    .deleteFrom('jobs')
    .where((eb) => eb.or([
      eb.and([eb('status', '=', 'done'), eb('finished_at', '<', before)]),
      eb.and([eb('status', '=', 'failed'), eb('finished_at', '<', before - 7 * 86_400_000)]),
    ]))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Per kind: jobs queued, jobs running, and when the oldest queued job that is due now fell due
 * (for the queue metrics; scheduled jobs, such as alerts waiting for their window, count as
 * queued but not as late). */
export async function jobQueueStats(db: Kysely<Database>, now = Date.now()): Promise<Array<{ kind: string; waiting: number; running: number; oldestDueAt: number | null }>> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'kind',
      eb.fn.sum<number>(eb.case().when('status', '=', 'queued').then(1).else(0).end()).as('waiting'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'running').then(1).else(0).end()).as('running'),
      eb.fn.min<number | null>(eb.case().when(eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)])).then(eb.ref('run_at')).end()).as('oldest'),
    ])
    .where('status', 'in', ['queued', 'running'])
    .groupBy('kind')
    .execute();
  return rows.map((r) => ({ kind: r.kind, waiting: Number(r.waiting), running: Number(r.running), oldestDueAt: r.oldest === null ? null : Number(r.oldest) }));
}
