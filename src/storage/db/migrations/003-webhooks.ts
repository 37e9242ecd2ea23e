import type { Kysely } from 'kysely';
import { dialectOf, millis, notNull, withId } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  await withId(db.schema.createTable('webhooks'), d)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    /** Which API family's events go to this target: camera-monitoring, ocr or plate-reader. */
    .addColumn('family', 'text', notNull)
    .addColumn('url', 'text', notNull)
    /** HMAC key for the signature header; shown once at creation. */
    .addColumn('secret', 'text', notNull)
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', millis, notNull)
    .addColumn('disabled_at', millis)
    .execute();
  await db.schema.createIndex('webhooks_account_family').on('webhooks').columns(['account_id', 'family']).execute();

  // One row per delivery attempt, as receivers and operators want to see them.
  await withId(db.schema.createTable('webhook_deliveries'), d)
    .addColumn('webhook_id', 'bigint', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'text', notNull)
    .addColumn('attempt', 'integer', notNull)
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', notNull)
    .addColumn('error', 'text')
    .addColumn('succeeded', 'integer', notNull)
    .addColumn('created_at', millis, notNull)
    .execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
