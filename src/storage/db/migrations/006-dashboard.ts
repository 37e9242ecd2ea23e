import type { Kysely } from 'kysely';
import { millis, notNull } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  // Dashboard sign-in sessions. The id is the SHA-256 of the cookie's token, so a database leak
  // hands out no usable session; the CSRF secret is per session.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('csrf_secret', 'text', notNull)
    .addColumn('created_at', millis, notNull)
    .addColumn('expires_at', millis, notNull)
    .execute();
  await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
}
