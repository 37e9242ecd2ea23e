import type { Kysely, Transaction } from 'kysely';
import type { JobsOptions, Queue } from 'bullmq';
import type { Database } from '../storage/db/schema.js';
import { dialectOf } from '../storage/db/dialect.js';

/** `locked_by` of a jobs row handed to BullMQ: the relay skips it, the BullMQ worker owns it. */
export const RELAYED = 'bullmq';

/** BullMQ refuses integer custom ids; `job-<row id>` keeps the row id as the de-duplication key. */
export const bullJobId = (rowId: number) => `job-${rowId}`;

export interface RelayedJobData {
  rowId: number;
}

export interface RelayOptions {
  /** Fallback poll for rows whose wake-up was missed (0: only when woken). */
  pollMs?: number;
  batchSize?: number;
  /** A wake-up can come before the producer's transaction commits: look again this much later. */
  trailingMs?: number;
  onError?: (err: unknown) => void;
}

/** Transactional outbox: producers insert the jobs row in their own transaction; the relay adds
 * each committed row to BullMQ with jobId = row id and marks it relayed. Safe in any number of
 * processes: on PostgreSQL rows are claimed with FOR UPDATE SKIP LOCKED, and a row relayed twice
 * (a relay that died between add and mark) is de-duplicated by BullMQ's jobId, or skipped by the
 * worker once the row is finished. */
/** Which BullMQ queue a job kind goes to (one queue per lane). */
export type QueueFor = (kind: string) => Queue;

export class OutboxRelay {
  private polling = false;
  private closed = false;
  private passing = false;
  private again = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private trailingTimer: NodeJS.Timeout | undefined;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly queueFor: QueueFor,
    private readonly options: RelayOptions = {},
  ) {}

  /** Also polls every `pollMs` (workers); without start() the relay only runs when woken. */
  start(): void {
    this.polling = true;
    this.wake();
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.pollTimer);
    clearTimeout(this.trailingTimer);
    await this.current;
  }

  /** A job was enqueued (here, or in another process through pub/sub). */
  wake(): void {
    if (this.closed) return;
    this.run();
    clearTimeout(this.trailingTimer);
    this.trailingTimer = setTimeout(() => this.run(), this.options.trailingMs ?? 50);
    this.trailingTimer.unref();
  }

  /** One pass over committed, unrelayed rows; returns how many were relayed. */
  async relayOnce(): Promise<number> {
    const batch = this.options.batchSize ?? 200;
    const pg = dialectOf(this.db) === 'postgres';
    const pass = async (db: Kysely<Database> | Transaction<Database>) => {
      const rows = await db
        .selectFrom('jobs')
        .select(['id', 'kind', 'run_at', 'max_attempts'])
        .where('status', '=', 'queued')
        .where('locked_by', 'is', null)
        .orderBy('id')
        .limit(batch)
        .$if(pg, (q) => q.forUpdate().skipLocked())
        .execute();
      if (rows.length === 0) return 0;
      const now = Date.now();
      await this.add(rows, (r) => ({ jobId: bullJobId(r.id), delay: Math.max(0, r.run_at - now), attempts: Math.max(1, r.max_attempts), backoff: { type: 'vigil' } }));
      await db.updateTable('jobs').set({ locked_by: RELAYED }).where('id', 'in', rows.map((r) => r.id)).where('locked_by', 'is', null).execute();
      return rows.length;
    };
    // SQLite has one writer and no row locks: no transaction held across the Redis call.
    return pg ? this.db.transaction().execute(pass) : pass(this.db);
  }

  /** Hands BullMQ again the relayed rows it should have run by now but did not finish (Redis lost
   * its data, e.g. restarted without persistence). A job BullMQ still holds is left as it is:
   * adding an existing jobId does nothing. */
  async recoverLost(overdueMs: number): Promise<number> {
    const cutoff = Date.now() - overdueMs;
    const rows = await this.db
      .selectFrom('jobs')
      .select(['id', 'kind', 'max_attempts'])
      .where('locked_by', 'like', `${RELAYED}%`)
      .where((eb) => eb.or([
        eb.and([eb('status', '=', 'queued'), eb('run_at', '<', cutoff)]),
        eb.and([eb('status', '=', 'running'), eb('locked_until', '<', cutoff)]),
      ]))
      .orderBy('run_at')
      .limit(this.options.batchSize ?? 200)
      .execute();
    if (rows.length === 0) return 0;
    await this.add(rows, (r) => ({ jobId: bullJobId(r.id), attempts: Math.max(1, r.max_attempts), backoff: { type: 'vigil' } }));
    return rows.length;
  }

  /** Adds the rows to their lanes' queues, one bulk call per queue. */
  private async add<R extends { id: number; kind: string }>(rows: R[], opts: (row: R) => JobsOptions): Promise<void> {
    const byQueue = new Map<Queue, R[]>();
    for (const r of rows) {
      const q = this.queueFor(r.kind);
      const group = byQueue.get(q);
      if (group) group.push(r);
      else byQueue.set(q, [r]);
    }
    for (const [queue, group] of byQueue) {
      await queue.addBulk(group.map((r) => ({ name: r.kind, data: { rowId: r.id } satisfies RelayedJobData, opts: opts(r) })));
    }
  }

  private run(): void {
    if (this.closed) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    this.passing = true;
    this.current = (async () => {
      try {
        do {
          this.again = false;
          if ((await this.relayOnce()) >= (this.options.batchSize ?? 200)) this.again = true;
        } while (this.again && !this.closed);
      } catch (err) {
        this.options.onError?.(err);
      } finally {
        this.passing = false;
        this.schedulePoll();
      }
    })();
  }

  private schedulePoll(): void {
    if (this.closed || !this.polling || !this.options.pollMs) return;
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => this.run(), this.options.pollMs);
    this.pollTimer.unref();
  }
}
