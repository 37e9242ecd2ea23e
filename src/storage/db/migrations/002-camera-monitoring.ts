import type { Kysely } from 'kysely';
import { dialectOf, millis, notNull, withId } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const cascade = (table: string) => (c: any) => c.notNull().references(`${table}.id`).onDelete('cascade');
  const setNull = (table: string) => (c: any) => c.references(`${table}.id`).onDelete('set null');

  await withId(db.schema.createTable('cameras'), d)
    .addColumn('account_id', 'bigint', cascade('accounts'))
    .addColumn('license_id', 'bigint', cascade('licenses'))
    .addColumn('serial', 'text', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    /** JSON object of per-camera threshold overrides; null means the defaults. */
    .addColumn('thresholds', 'text')
    .addColumn('review_band', 'real')
    .addColumn('reference_image_id', 'bigint', setNull('images'))
    .addColumn('latest_status', 'text')
    .addColumn('latest_log_id', 'bigint')
    .addColumn('last_upload_at', millis)
    .addColumn('created_at', millis, notNull)
    .addColumn('modified_at', millis, notNull)
    .addUniqueConstraint('cameras_account_serial', ['account_id', 'serial'])
    .execute();
  await db.schema.createIndex('cameras_license_status').on('cameras').columns(['license_id', 'latest_status']).execute();
  await db.schema.createIndex('cameras_last_upload').on('cameras').columns(['last_upload_at']).execute();

  await withId(db.schema.createTable('tags'), d)
    .addColumn('account_id', 'bigint', cascade('accounts'))
    .addColumn('name', 'text', notNull)
    .addUniqueConstraint('tags_account_name', ['account_id', 'name'])
    .execute();

  await db.schema
    .createTable('camera_tags')
    .addColumn('camera_id', 'bigint', cascade('cameras'))
    .addColumn('tag_id', 'bigint', cascade('tags'))
    .addPrimaryKeyConstraint('camera_tags_pk', ['camera_id', 'tag_id'])
    .execute();

  await withId(db.schema.createTable('camera_logs'), d)
    .addColumn('camera_id', 'bigint', cascade('cameras'))
    .addColumn('status', 'text', notNull)
    /** JSON: anomalies at or above threshold, as the API shows them. */
    .addColumn('anomalies', 'text', notNull)
    /** JSON: all four scores, for review and threshold tuning; null when not analysed. */
    .addColumn('scores', 'text')
    .addColumn('image_id', 'bigint', setNull('images'))
    .addColumn('detail', 'text')
    .addColumn('created_at', millis, notNull)
    .execute();
  await db.schema.createIndex('camera_logs_camera_created').on('camera_logs').columns(['camera_id', 'created_at']).execute();
  await db.schema.createIndex('camera_logs_camera_status_created').on('camera_logs').columns(['camera_id', 'status', 'created_at']).execute();
  // One log per uploaded image: a re-run analysis job updates it instead of adding another.
  await db.schema.createIndex('camera_logs_image').on('camera_logs').column('image_id').unique().execute();

  await withId(db.schema.createTable('reference_images'), d)
    .addColumn('camera_id', 'bigint', cascade('cameras'))
    .addColumn('image_id', 'bigint', cascade('images'))
    .addColumn('created_at', millis, notNull)
    .execute();
  await db.schema.createIndex('reference_images_camera').on('reference_images').columns(['camera_id', 'created_at']).execute();

  await withId(db.schema.createTable('alerts'), d)
    .addColumn('account_id', 'bigint', cascade('accounts'))
    .addColumn('license_id', 'bigint', cascade('licenses'))
    .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
    /** Changes on the license until this time join the alert; then it is dispatched. */
    .addColumn('window_closes_at', millis, notNull)
    .addColumn('dispatched_at', millis)
    .addColumn('created_at', millis, notNull)
    .execute();
  await db.schema.createIndex('alerts_license_created').on('alerts').columns(['license_id', 'created_at']).execute();

  await withId(db.schema.createTable('alert_cameras'), d)
    .addColumn('alert_id', 'bigint', cascade('alerts'))
    .addColumn('camera_id', 'bigint', setNull('cameras'))
    .addColumn('serial', 'text', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('anomalies', 'text', notNull)
    .addColumn('tags', 'text', notNull)
    .addColumn('snapshot_image_id', 'bigint', setNull('images'))
    .addColumn('reference_image_id', 'bigint', setNull('images'))
    .addColumn('created_at', millis, notNull)
    .execute();
  await db.schema.createIndex('alert_cameras_alert').on('alert_cameras').column('alert_id').execute();

  await withId(db.schema.createTable('jobs'), d)
    .addColumn('kind', 'text', notNull)
    .addColumn('payload', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', notNull)
    .addColumn('run_at', millis, notNull)
    .addColumn('locked_until', millis)
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', millis, notNull)
    .addColumn('finished_at', millis)
    .execute();
  await db.schema.createIndex('jobs_ready').on('jobs').columns(['status', 'run_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['jobs', 'alert_cameras', 'alerts', 'reference_images', 'camera_logs', 'camera_tags', 'tags', 'cameras']) {
    await db.schema.dropTable(t).execute();
  }
}
