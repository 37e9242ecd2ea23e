import type { Kysely } from 'kysely';
import { dialectOf, millis, notNull, withId } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  // Every plate an account's calls read (issue 29's history), kept PLATE_HISTORY_DAYS.
  await withId(db.schema.createTable('plate_reads'), dialectOf(db))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('camera_id', 'text')
    /** The call's `timestamp` (the camera's time) or, without one, when it was read. */
    .addColumn('read_at', millis, notNull)
    .addColumn('plate', 'text', notNull)
    .addColumn('score', 'real', notNull)
    .addColumn('dscore', 'real', notNull)
    .addColumn('region', 'text', notNull)
    /** JSON: the answer's candidates, plate box and vehicle, as the reader returned them. */
    .addColumn('candidates', 'text', notNull)
    .addColumn('box', 'text', notNull)
    .addColumn('vehicle', 'text')
    .addColumn('image_id', 'bigint', (c) => c.references('images.id').onDelete('set null'))
    .addColumn('created_at', millis, notNull)
    .execute();
  await db.schema.createIndex('plate_reads_account_time').on('plate_reads').columns(['account_id', 'read_at', 'id']).execute();
  await db.schema.createIndex('plate_reads_account_plate').on('plate_reads').columns(['account_id', 'plate', 'read_at']).execute();
  await db.schema.createIndex('plate_reads_account_camera').on('plate_reads').columns(['account_id', 'camera_id', 'read_at']).execute();
  await db.schema.createIndex('plate_reads_created').on('plate_reads').columns(['created_at']).execute();
  // Fuzzy search (src/domain/plates/plate-keys.ts): a few keys per read, found by index.
  await db.schema
    .createTable('plate_read_keys')
    .addColumn('read_id', 'bigint', (c) => c.notNull().references('plate_reads.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', notNull)
    .addColumn('key', 'text', notNull)
    .addColumn('read_at', millis, notNull)
    .execute();
  await db.schema.createIndex('plate_read_keys_lookup').on('plate_read_keys').columns(['account_id', 'key', 'read_at', 'read_id']).execute();
  await db.schema.createIndex('plate_read_keys_read').on('plate_read_keys').column('read_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('plate_read_keys').execute();
  await db.schema.dropTable('plate_reads').execute();
}
