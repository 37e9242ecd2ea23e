import type { Kysely } from 'kysely';
import { dialectOf, millis, notNull, withId } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const fk = (table: string) => (c: any) => c.notNull().references(`${table}.id`).onDelete('cascade');

  await withId(db.schema.createTable('accounts'), d)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('features', 'text', notNull)
    .addColumn('password_hash', 'text')
    .addColumn('created_at', millis, notNull)
    .addColumn('modified_at', millis, notNull)
    .execute();

  await withId(db.schema.createTable('api_tokens'), d)
    .addColumn('account_id', 'bigint', fk('accounts'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'text', notNull)
    .addColumn('created_at', millis, notNull)
    .addColumn('last_used_at', millis)
    .addColumn('revoked_at', millis)
    .execute();
  await db.schema.createIndex('api_tokens_account').on('api_tokens').column('account_id').execute();

  await withId(db.schema.createTable('licenses'), d)
    .addColumn('account_id', 'bigint', fk('accounts'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('size', 'integer', notNull)
    .addColumn('va_type', 'text', notNull)
    .addColumn('expiration', millis, notNull)
    .addColumn('created_at', millis, notNull)
    .addColumn('modified_at', millis, notNull)
    .execute();
  await db.schema.createIndex('licenses_account').on('licenses').columns(['account_id', 'created_at']).execute();

  await withId(db.schema.createTable('images'), d)
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'bigint', fk('accounts'))
    .addColumn('blob_key', 'text', notNull)
    .addColumn('content_type', 'text', notNull)
    .addColumn('byte_size', 'integer', notNull)
    .addColumn('width', 'integer', notNull)
    .addColumn('height', 'integer', notNull)
    .addColumn('created_at', millis, notNull)
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', notNull)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['settings', 'images', 'licenses', 'api_tokens', 'accounts']) await db.schema.dropTable(t).execute();
}
