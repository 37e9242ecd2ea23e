import os from 'node:os';
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Kysely, UpdateObject } from 'kysely';
import type { Database } from '../storage/db/schema.js';
import { backoffMs, boundJob, laneOf, LANE_NAMES, RetryLater, type JobHandlers, type JobLane } from './jobs.js';
import { countUnfinishedJobs, purgeFinishedJobs, type JobRunner } from './job-runner.js';
import { OutboxRelay, RELAYED, type RelayedJobData } from './outbox-relay.js';

export interface BullRunnerOptions {
  redisUrl: string;
  /** BullMQ queue name; one per installation so several installations can share a Redis. Each
   * lane has its own queue: the analysis lane this name, the others `<name>-<lane>`. */
  queueName: string;
  /** Redis key prefix (tests use a unique one each). */
  prefix?: string;
  /** Jobs run at once per lane (see JOB_LANES), per process. */
  concurrency: number;
  /** A job whose worker stopped renewing its lock (killed) is run again after about this long. */
  leaseMs?: number;
  /** Fallback poll of the outbox relay. */
  pollMs?: number;
  backoff?: (attempt: number) => number;
  /** Times a job may take its worker down (stall) before it is failed as a poison job. */
  maxStalls?: number;
  onError?: (err: unknown, kind: string) => void;
}

/** The analysis lane keeps the installation's queue name (queues created before lanes existed
 * keep working); other lanes get a suffix. */
export const laneQueueName = (queueName: string, lane: JobLane) => (lane === 'analysis' ? queueName : `${queueName}-${lane}`);

const STALLED_LIMIT_REASON = 'job stalled more than allowable limit';

/** `locked_by` of a running row: which process runs it (operators, and the SIGKILL test). */
const RUNNING_HERE = `${RELAYED}:${os.hostname()}:${process.pid}`;

/** Runs the jobs of the `jobs` table on BullMQ workers. The table stays the outbox and the record:
 * producers insert rows in their transactions, the relay hands committed rows to BullMQ, and each
 * run writes its status back to the row, so drain(), purgeFinished() and the operational views
 * read the same table in both modes. */
export class BullJobRunner implements JobRunner {
  readonly relay: OutboxRelay;
  private readonly queues: Record<JobLane, Queue>;
  private workers: Array<Worker<RelayedJobData>> = [];
  private recoveryTimer: NodeJS.Timeout | undefined;
  private readonly leaseMs: number;
  private readonly backoff: (attempt: number) => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly handlers: JobHandlers,
    private readonly options: BullRunnerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.backoff = options.backoff ?? backoffMs;
    const queue = (lane: JobLane) => {
      const q = new Queue(laneQueueName(options.queueName, lane), { connection: { url: options.redisUrl }, prefix: options.prefix ?? 'vigil' });
      q.on('error', (err) => options.onError?.(err, 'redis'));
      return q;
    };
    this.queues = { analysis: queue('analysis'), delivery: queue('delivery') };
    this.relay = new OutboxRelay(db, (kind) => this.queues[laneOf(kind)], { pollMs: options.pollMs ?? 1000, onError: (err) => options.onError?.(err, 'relay') });
  }

  start(): void {
    if (this.workers.length) return;
    this.relay.start();
    // Rows BullMQ should have finished a lease ago are handed to it again (lost Redis data).
    this.recoveryTimer = setInterval(() => {
      void this.relay.recoverLost(this.leaseMs).catch((err) => this.options.onError?.(err, 'relay'));
    }, Math.max(1000, this.leaseMs));
    this.recoveryTimer.unref();
    this.workers = LANE_NAMES.map((lane) => this.startWorker(lane));
  }

  private startWorker(lane: JobLane): Worker<RelayedJobData> {
    const worker = new Worker<RelayedJobData>(laneQueueName(this.options.queueName, lane), (job, token) => this.process(job, token), {
      connection: { url: this.options.redisUrl, maxRetriesPerRequest: null },
      prefix: this.options.prefix ?? 'vigil',
      concurrency: this.options.concurrency,
      // The lock is renewed every lockDuration / 2 while the process lives; a killed worker's job
      // is moved back to wait by the next stalled check after the lock expired.
      lockDuration: this.leaseMs,
      stalledInterval: Math.max(500, Math.floor(this.leaseMs / 2)),
      maxStalledCount: this.options.maxStalls ?? 5,
      settings: { backoffStrategy: (attemptsMade: number) => this.backoff(attemptsMade) },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 1000 },
    });
    worker.on('error', (err) => this.options.onError?.(err, 'redis'));
    worker.on('failed', (job, err) => {
      if (job && err.message === STALLED_LIMIT_REASON) void this.giveUp((job.data as RelayedJobData).rowId, err).catch((e) => this.options.onError?.(e, job.name));
    });
    return worker;
  }

  /** Graceful: BullMQ's close waits for the jobs in flight. */
  async stop(): Promise<void> {
    clearInterval(this.recoveryTimer);
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.close()));
  }

  /** Stops at once, leaving jobs in flight unfinished and locked until their lease runs out, as
   * a worker killed with SIGKILL would (tests use it to prove crash recovery). */
  async abandon(): Promise<void> {
    clearInterval(this.recoveryTimer);
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.close(true)));
  }

  async close(): Promise<void> {
    await this.stop();
    await this.relay.stop();
    await Promise.all(Object.values(this.queues).map((q) => q.close()));
  }

  async drain(timeoutMs = 30_000, horizonMs = 0): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await countUnfinishedJobs(this.db, horizonMs)) === 0) return;
      this.relay.wake();
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('jobs did not drain in time');
  }

  purgeFinished(before: number): Promise<number> {
    return purgeFinishedJobs(this.db, before);
  }

  private async process(job: Job<RelayedJobData>, token: string | undefined): Promise<void> {
    const id = job.data.rowId;
    const attempt = job.attemptsMade + 1;
    // Also the idempotency guard: a job delivered again after it finished (its worker died
    // between the row update and BullMQ's completion) finds no row to claim.
    const row = await this.updateUnfinished(id, { status: 'running', attempts: attempt, locked_by: RUNNING_HERE, locked_until: Date.now() + this.leaseMs });
    if (!row) return;
    const bound = boundJob(this.handlers, row.kind, row.payload);
    const context = { jobId: id, attempt, maxAttempts: row.max_attempts };
    try {
      await bound.run(context);
    } catch (raw) {
      const err = raw instanceof Error ? raw : new Error(String(raw));
      if (err instanceof RetryLater) {
        await this.requeue(id, Date.now() + err.delayMs, err.message, attempt - 1);
        await job.moveToDelayed(Date.now() + err.delayMs, token);
        throw new DelayedError();
      }
      if (attempt >= row.max_attempts) {
        this.options.onError?.(err, row.kind);
        await this.giveUp(id, err);
        throw new UnrecoverableError(err.message);
      }
      await bound.onRetry(err, context).catch((e) => this.options.onError?.(e, row.kind));
      await this.requeue(id, Date.now() + this.backoff(attempt), err.message, attempt);
      throw err; // BullMQ schedules the retry with the same backoff
    }
    await this.db.updateTable('jobs').set({ status: 'done', last_error: null, finished_at: Date.now(), locked_until: null }).where('id', '=', id).execute();
  }

  /** Updates the row unless it is already finished; the row as updated, or undefined. */
  private updateUnfinished(id: number, values: UpdateObject<Database, 'jobs'>) {
    return this.db.updateTable('jobs').set(values).where('id', '=', id).where('status', 'in', ['queued', 'running']).returningAll().executeTakeFirst();
  }

  private async requeue(id: number, runAt: number, error: string, attempts: number) {
    await this.db.updateTable('jobs').set({ status: 'queued', run_at: runAt, last_error: error, attempts, locked_until: null }).where('id', '=', id).execute();
  }

  /** Marks the row failed once and tells the handler (e.g. the log goes under review). */
  private async giveUp(id: number, err: Error): Promise<void> {
    const row = await this.updateUnfinished(id, { status: 'failed', last_error: err.message, finished_at: Date.now(), locked_until: null });
    if (!row) return;
    const context = { jobId: id, attempt: row.attempts, maxAttempts: row.max_attempts };
    await boundJob(this.handlers, row.kind, row.payload).onGiveUp(err, context).catch((e) => this.options.onError?.(e, row.kind));
  }
}
