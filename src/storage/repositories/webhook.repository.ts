import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { WebhookDeliveriesTable, WebhooksTable } from '../db/schema.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

export interface NewDeliveryAttempt {
  webhookId: number;
  event: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  succeeded: boolean;
}

/** Webhook targets and their delivery attempts. Methods named `...ForAccount` are what user
 * actions use; the by-id ones serve the delivery worker, which acts for the system. */
export class WebhookRepository {
  constructor(private readonly db: Db) {}

  async create(values: { accountId: number; family: string; url: string; secret: string; format?: string }, now = Date.now()): Promise<WebhookRow> {
    return this.db
      .insertInto('webhooks')
      .values({ account_id: values.accountId, family: values.family, url: values.url, secret: values.secret, payload_format: values.format ?? 'json', created_at: now, disabled_at: null })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async listForAccount(accountId: number): Promise<WebhookRow[]> {
    return this.db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  async countForAccount(accountId: number): Promise<number> {
    const row = await this.db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findForAccount(accountId: number, id: number): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  async findByUrl(accountId: number, family: string, url: string): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).where('family', '=', family).where('url', '=', url).executeTakeFirst();
  }

  async findById(id: number): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listActive(accountId: number, family: string): Promise<WebhookRow[]> {
    return this.db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).where('family', '=', family).where('active', '=', 1).orderBy('id').execute();
  }

  /** Deletes the target and, by cascade, its delivery history. */
  async deleteForAccount(accountId: number, id: number): Promise<boolean> {
    const res = await this.db.deleteFrom('webhooks').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async enableForAccount(accountId: number, id: number): Promise<WebhookRow | undefined> {
    return this.db
      .updateTable('webhooks')
      .set({ active: 1, consecutive_failures: 0, disabled_at: null })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async recordAttempt(a: NewDeliveryAttempt, now = Date.now()): Promise<WebhookDeliveryRow> {
    return this.db
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: a.webhookId, event: a.event, attempt: a.attempt, status_code: a.statusCode, duration_ms: Math.round(a.durationMs),
        error: a.error, succeeded: a.succeeded ? 1 : 0, created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async resetFailures(id: number): Promise<void> {
    await this.db.updateTable('webhooks').set({ consecutive_failures: 0 }).where('id', '=', id).execute();
  }

  /** Atomically counts one more failed attempt; returns the new count. */
  async incrementFailures(id: number): Promise<number> {
    const row = await this.db
      .updateTable('webhooks')
      .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
      .where('id', '=', id)
      .returning('consecutive_failures')
      .executeTakeFirst();
    return row ? Number(row.consecutive_failures) : 0;
  }

  /** True only for the call that switched the target off, so its owner is told once. */
  async deactivate(id: number, now = Date.now()): Promise<boolean> {
    const res = await this.db.updateTable('webhooks').set({ active: 0, disabled_at: now }).where('id', '=', id).where('active', '=', 1).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Most recent attempts first, only for a target of the account. */
  async deliveriesForAccount(accountId: number, webhookId: number, limit: number): Promise<WebhookDeliveryRow[]> {
    return this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .selectAll('d')
      .where('w.account_id', '=', accountId)
      .where('d.webhook_id', '=', webhookId)
      .orderBy('d.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Keeps the newest `keep` attempts of a target: the history is for debugging, not an archive. */
  async pruneDeliveries(webhookId: number, keep: number): Promise<void> {
    const cutoff = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhookId)
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(1)
      .executeTakeFirst();
    if (cutoff) await this.db.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).where('id', '<=', cutoff.id).execute();
  }
}
