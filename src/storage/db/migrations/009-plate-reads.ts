import type { Kysely } from 'kysely';
import { dialectOf, millis, notNull, withId } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  // Reads of one plate at one camera, no more than PLATE_VISIT_GAP_SECONDS apart: one car's visit.
  await withId(db.schema.createTable('plate_visits'), dialectOf(db))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('camera_id', 'text')
    /** The plate with look-alikes folded (src/domain/plates/plate-keys.ts): what joins reads. */
    .addColumn('plate_key', 'text', notNull)
    .addColumn('first_seen', millis, notNull)
    .addColumn('last_seen', millis, notNull)
    .addColumn('reads', 'integer', notNull)
    /** The best read so far: its plate, score and photo. */
    .addColumn('plate', 'text', notNull)
    .addColumn('score', 'real', notNull)
    .addColumn('region', 'text', notNull)
    .addColumn('image_id', 'bigint', (c) => c.references('images.id').onDelete('set null'))
    .addColumn('created_at', millis, notNull)
    .execute();
  await db.schema.createIndex('plate_visits_open').on('plate_visits').columns(['account_id', 'plate_key', 'camera_id', 'last_seen']).execute();
  await db.schema.createIndex('plate_visits_account_time').on('plate_visits').columns(['account_id', 'last_seen', 'id']).execute();

  // Every plate an account's calls read (issue 29's history), kept PLATE_HISTORY_DAYS, each in
  // the visit it belongs to.
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
    .addColumn('visit_id', 'bigint', (c) => c.references('plate_visits.id').onDelete('set null'))
    .addColumn('created_at', millis, notNull)
    .execute();
  await db.schema.createIndex('plate_reads_visit').on('plate_reads').column('visit_id').execute();
  await db.schema.createIndex('plate_reads_account_time').on('plate_reads').columns(['account_id', 'read_at', 'id']).execute();
  await db.schema.createIndex('plate_reads_account_plate').on('plate_reads').columns(['account_id', 'plate', 'read_at']).execute();
  await db.schema.createIndex('plate_reads_account_camera').on('plate_reads').columns(['account_id', 'camera_id', 'read_at']).execute();
  await db.schema.createIndex('plate_reads_created').on('plate_reads').columns(['created_at']).execute();
  // The dashboard's live updates ask for an account's newest read every few seconds.
  await db.schema.createIndex('plate_reads_account_id').on('plate_reads').columns(['account_id', 'id']).execute();
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

  // Named lists of plates a read is checked against (alert, allow, deny).
  await withId(db.schema.createTable('watchlists'), dialectOf(db))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', notNull)
    .addColumn('tag', 'text', notNull)
    /** 1: look-alikes and plates one character off match too. */
    .addColumn('fuzzy', 'integer', notNull)
    .addColumn('created_at', millis, notNull)
    .addUniqueConstraint('watchlists_account_name', ['account_id', 'name'])
    .execute();
  await db.schema
    .createTable('watchlist_plates')
    .addColumn('watchlist_id', 'bigint', (c) => c.notNull().references('watchlists.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', notNull)
    .addColumn('plate', 'text', notNull)
    .addColumn('note', 'text', notNull)
    .execute();
  await db.schema.createIndex('watchlist_plates_account').on('watchlist_plates').columns(['account_id', 'watchlist_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('watchlist_plates').execute();
  await db.schema.dropTable('watchlists').execute();
  await db.schema.dropTable('plate_read_keys').execute();
  await db.schema.dropTable('plate_reads').execute();
  await db.schema.dropTable('plate_visits').execute();
}
