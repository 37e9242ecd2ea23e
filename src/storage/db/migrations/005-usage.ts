import type { Kysely } from 'kysely';
import { notNull } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  // Calls per account, API family and calendar month (UTC), counted atomically per call.
  await db.schema
    .createTable('usage_counters')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('family', 'text', notNull)
    .addColumn('period', 'text', notNull)
    .addColumn('calls', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_counters_pk', ['account_id', 'family', 'period'])
    .execute();

  // Monthly call allowance per account and family; no row means the default.
  await db.schema
    .createTable('quotas')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('family', 'text', notNull)
    .addColumn('total_calls', 'integer', notNull)
    .addPrimaryKeyConstraint('quotas_pk', ['account_id', 'family'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('quotas').execute();
  await db.schema.dropTable('usage_counters').execute();
}
