import type { Kysely } from 'kysely';
import { millis, notNull } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  // Dashboard sign-in links sent by e-mail. Like sessions, the id is the SHA-256 of the token in
  // the link, so the table hands out nothing usable; a row is deleted when the link is used.
  await db.schema
    .createTable('login_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', millis, notNull)
    .addColumn('expires_at', millis, notNull)
    .execute();
  await db.schema.createIndex('login_links_account').on('login_links').column('account_id').execute();
  await db.schema.createIndex('login_links_expires').on('login_links').column('expires_at').execute();
  // The dashboard's live updates ask for an account's newest alert every few seconds.
  await db.schema.createIndex('alerts_account_id').on('alerts').columns(['account_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alerts_account_id').execute();
  await db.schema.dropTable('login_links').execute();
}
