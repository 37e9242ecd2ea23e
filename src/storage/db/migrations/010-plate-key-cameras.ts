import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // A fuzzy search at one camera walked every read of a key and dropped the other cameras' after
  // the join: slow for a plate seen often elsewhere (p95 72 ms at 1,000,000 reads on PostgreSQL).
  // The key rows carry their read's camera, and an index puts one camera's reads of a key together.
  await db.schema.alterTable('plate_read_keys').addColumn('camera_id', 'text').execute();
  await sql`update plate_read_keys set camera_id = (select camera_id from plate_reads where plate_reads.id = plate_read_keys.read_id)`.execute(db);
  await db.schema.createIndex('plate_read_keys_camera').on('plate_read_keys').columns(['account_id', 'camera_id', 'key', 'read_at', 'read_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('plate_read_keys_camera').execute();
  await db.schema.alterTable('plate_read_keys').dropColumn('camera_id').execute();
}
