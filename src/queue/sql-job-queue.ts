import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/db/schema.js';
import { dialectOf } from '../storage/db/dialect.js';
import { countUnfinishedJobs, purgeFinishedJobs, type JobRunner } from './job-runner.js';
import { backoffMs, boundJob, checkedPayload, JOB_LANES, LANE_NAMES, RetryLater, type EnqueueOptions, type JobHandlers, type JobKind, type JobLane, type JobPayload, type JobQueue } from './jobs.js';

type DbOrTrx = Kysely<Database> | Transaction<Database>;

const DEFAULT_MAX_ATTEMPTS = 5;

/** Durable job queue in the `jobs` table. Enqueueing inside the caller's transaction means a job
 * exists exactly when the data it works on was committed. */
export class SqlJobQueue implements JobQueue {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly db: Kysely<Database>) {}

  /** A queue bound to a transaction: jobs commit (or roll back) with it. */
  within(trx: DbOrTrx): JobQueue {
    return { enqueue: (kind, payload, options) => this.insert(trx, kind, payload, options) };
  }

  enqueue<K extends JobKind>(kind: K, payload: JobPayload<K>, options?: EnqueueOptions): Promise<number> {
    return this.insert(this.db, kind, payload, options);
  }

  /** Wakes this process's runner (embedded) or outbox relay (BullMQ) early; other processes find
   * the job on their next poll. */
  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const l of this.listeners) l();
  }

  private async insert<K extends JobKind>(db: DbOrTrx, kind: K, payload: JobPayload<K>, options: EnqueueOptions = {}): Promise<number> {
    checkedPayload(kind, payload);
    const now = Date.now();
    const row = await db
      .insertInto('jobs')
      .values({
        kind, payload: JSON.stringify(payload), status: 'queued', max_attempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        run_at: options.runAt ?? now, locked_until: null, locked_by: null, last_error: null, created_at: now, finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Runners are woken after the surrounding transaction had a chance to commit; a runner
    // that looks too early finds the job on its next poll.
    setImmediate(() => this.notify());
    return row.id;
  }
}

export interface RunnerOptions {
  /** Jobs run at once in each lane (see JOB_LANES). */
  concurrency: number;
  /** How long a claimed job is owned before another runner may take it over (crash recovery). */
  leaseMs?: number;
  pollMs?: number;
  /** Delay before retry number `attempt` (default: exponential from 2 s). */
  backoff?: (attempt: number) => number;
  onError?: (err: unknown, kind: string) => void;
}

/** Claims due jobs and runs their handlers. Safe with several runners in several processes:
 * a claim is one conditional UPDATE (with SKIP LOCKED on PostgreSQL). */
export class SqlJobRunner implements JobRunner {
  private readonly id = randomUUID();
  private readonly runningIn: Record<JobLane, number> = { analysis: 0, delivery: 0 };
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  private readonly idle = new Set<() => void>();
  private unsubscribe: (() => void) | undefined;
  private readonly leaseMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly queue: SqlJobQueue,
    private readonly handlers: JobHandlers,
    private readonly options: RunnerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.pollMs = options.pollMs ?? 500;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.queue.onEnqueued(() => this.pump());
    this.pump();
  }

  /** Stops claiming and waits for jobs in flight to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    if (this.running > 0) await new Promise<void>((resolve) => this.idle.add(resolve));
  }

  /** Stops at once, leaving jobs in flight claimed until their lease runs out, as a worker
   * killed with SIGKILL would (tests use it to prove crash recovery). */
  async abandon(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
  }

  async drain(timeoutMs = 30_000, horizonMs = 0): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await countUnfinishedJobs(this.db, horizonMs)) === 0 && this.running === 0) return;
      this.pump();
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('jobs did not drain in time');
  }

  purgeFinished(before: number): Promise<number> {
    return purgeFinishedJobs(this.db, before);
  }

  private pump(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    // Fill one slot per lane per tick; the completion handler fills the rest while there is work.
    for (const lane of LANE_NAMES) {
      if (this.runningIn[lane] >= this.options.concurrency) continue;
      this.runningIn[lane]++;
      // The bookkeeping after a job (finish, reschedule) can fail when the database drops: the
      // job keeps its lease and is taken again once it expires; the slot must still be freed
      // and the rejection handled (unhandled, it would end the process).
      void this.claimAndRun(lane).catch((err) => {
        this.options.onError?.(err, 'runner');
        return false;
      }).then((ran) => {
        this.runningIn[lane]--;
        if (this.running === 0) {
          for (const r of this.idle) r();
          this.idle.clear();
        }
        if (ran) this.pump();
        else this.schedulePoll();
      });
    }
  }

  /** Jobs in flight over every lane. */
  private get running(): number {
    return LANE_NAMES.reduce((n, lane) => n + this.runningIn[lane], 0);
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pump(), this.pollMs);
    this.timer.unref();
  }

  private async claim(lane: JobLane) {
    const now = Date.now();
    const pg = dialectOf(this.db) === 'postgres';
    return this.db
      .updateTable('jobs')
      .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), locked_until: now + this.leaseMs, locked_by: this.id }))
      .where('id', '=', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where('kind', 'in', JOB_LANES[lane])
          .where((w) => w.or([w.and([w('status', '=', 'queued'), w('run_at', '<=', now)]), w.and([w('status', '=', 'running'), w('locked_until', '<', now)])]))
          .orderBy('run_at')
          .orderBy('id')
          .limit(1)
          .$if(pg, (q) => q.forUpdate().skipLocked()),
      )
      .where((w) => w.or([w('status', '=', 'queued'), w('locked_until', '<', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  private async claimAndRun(lane: JobLane): Promise<boolean> {
    let job;
    try {
      job = await this.claim(lane);
    } catch (err) {
      this.options.onError?.(err, 'claim');
      return false;
    }
    if (!job) return false;
    const bound = boundJob(this.handlers, job.kind, job.payload);
    const context = { jobId: job.id, attempt: job.attempts, maxAttempts: job.max_attempts };
    try {
      await bound.run(context);
      await this.finish(job.id, 'done', null);
    } catch (raw) {
      const err = raw instanceof Error ? raw : new Error(String(raw));
      if (err instanceof RetryLater) {
        await this.reschedule(job.id, Date.now() + err.delayMs, err.message, true);
      } else if (job.attempts >= job.max_attempts) {
        this.options.onError?.(err, job.kind);
        await bound.onGiveUp(err, context).catch((e) => this.options.onError?.(e, job.kind));
        await this.finish(job.id, 'failed', err.message);
      } else {
        await bound.onRetry(err, context).catch((e) => this.options.onError?.(e, job.kind));
        await this.reschedule(job.id, Date.now() + (this.options.backoff ?? backoffMs)(job.attempts), err.message, false);
      }
    }
    return true;
  }

  private async finish(id: number, status: 'done' | 'failed', error: string | null) {
    await this.db.updateTable('jobs').set({ status, last_error: error, finished_at: Date.now(), locked_until: null, locked_by: null }).where('id', '=', id).execute();
  }

  private async reschedule(id: number, runAt: number, error: string, refundAttempt: boolean) {
    await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'queued', run_at: runAt, last_error: error, locked_until: null, locked_by: null,
        ...(refundAttempt ? { attempts: eb('attempts', '-', 1) } : {}),
      }))
      .where('id', '=', id)
      .execute();
  }
}
