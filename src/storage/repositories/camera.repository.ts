import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { CameraLogsTable, CamerasTable, Database } from '../db/schema.js';

export type CameraRow = Selectable<CamerasTable>;

/** The stored images of the cameras: their log uploads and references (what deleting them must delete). */
export async function imagesOfCameras(db: Db, cameraIds: readonly number[]): Promise<Array<{ id: number; blob_key: string }>> {
  if (cameraIds.length === 0) return [];
  const logs = db.selectFrom('camera_logs').select('image_id').where('camera_id', 'in', cameraIds).where('image_id', 'is not', null);
  const refs = db.selectFrom('reference_images').select('image_id').where('camera_id', 'in', cameraIds);
  return db
    .selectFrom('images')
    .select(['id', 'blob_key'])
    .where((eb) => eb.or([eb('id', 'in', logs), eb('id', 'in', refs)]))
    .execute() as Promise<Array<{ id: number; blob_key: string }>>;
}
export type CameraWithTags = CameraRow & { tags: string[]; license_code: string };

export interface CameraListFilter {
  status?: string;
  limit?: number;
  offset?: number;
}

export class CameraRepository {
  constructor(private readonly db: Db) {}

  findBySerial(accountId: number, serial: string): Promise<CameraRow | undefined> {
    return this.db.selectFrom('cameras').selectAll().where('account_id', '=', accountId).where('serial', '=', serial).executeTakeFirst();
  }

  findById(id: number): Promise<CameraRow | undefined> {
    return this.db.selectFrom('cameras').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findInLicense(licenseId: number, serial: string): Promise<CameraRow | undefined> {
    return this.db.selectFrom('cameras').selectAll().where('license_id', '=', licenseId).where('serial', '=', serial).executeTakeFirst();
  }

  async countByLicense(licenseIds: number[]): Promise<Map<number, number>> {
    if (licenseIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('cameras')
      .select(['license_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('license_id', 'in', licenseIds)
      .groupBy('license_id')
      .execute();
    return new Map(rows.map((r) => [r.license_id, Number(r.n)]));
  }

  /** Creates the camera, or returns the one a concurrent upload just created. */
  async create(values: { accountId: number; licenseId: number; serial: string }, now = Date.now()): Promise<CameraRow> {
    const row = await this.db
      .insertInto('cameras')
      .values({
        account_id: values.accountId, license_id: values.licenseId, serial: values.serial, name: values.serial,
        thresholds: null, review_band: null, reference_image_id: null, latest_status: null, latest_log_id: null,
        last_upload_at: null, created_at: now, modified_at: now,
      })
      .onConflict((oc) => oc.columns(['account_id', 'serial']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ?? (await this.findBySerial(values.accountId, values.serial))!;
  }

  /** Takes the camera's upload slot if its interval has passed. One conditional UPDATE, so two
   * simultaneous uploads (even on two API processes) cannot both win. */
  async claimUploadSlot(cameraId: number, now: number, intervalMs: number): Promise<boolean> {
    const res = await this.db
      .updateTable('cameras')
      .set({ last_upload_at: now })
      .where('id', '=', cameraId)
      .where((eb) => eb.or([eb('last_upload_at', 'is', null), eb('last_upload_at', '<=', now - intervalMs)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async addTag(accountId: number, cameraId: number, name: string): Promise<boolean> {
    await this.db.insertInto('tags').values({ account_id: accountId, name }).onConflict((oc) => oc.columns(['account_id', 'name']).doNothing()).execute();
    const tag = await this.db.selectFrom('tags').select('id').where('account_id', '=', accountId).where('name', '=', name).executeTakeFirstOrThrow();
    const res = await this.db.insertInto('camera_tags').values({ camera_id: cameraId, tag_id: tag.id }).onConflict((oc) => oc.columns(['camera_id', 'tag_id']).doNothing()).executeTakeFirst();
    const added = Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
    if (added) await this.db.updateTable('cameras').set({ modified_at: Date.now() }).where('id', '=', cameraId).execute();
    return added;
  }

  async tagsOf(cameraIds: number[]): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    if (cameraIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('camera_tags')
      .innerJoin('tags', 'tags.id', 'camera_tags.tag_id')
      .select(['camera_tags.camera_id', 'tags.name'])
      .where('camera_tags.camera_id', 'in', cameraIds)
      .orderBy('tags.name')
      .execute();
    for (const r of rows) out.set(r.camera_id, [...(out.get(r.camera_id) ?? []), r.name]);
    return out;
  }

  /** Cameras of a license in registration order, with their tags. */
  async listByLicense(licenseId: number, filter: CameraListFilter = {}): Promise<CameraWithTags[]> {
    let q = this.db
      .selectFrom('cameras')
      .innerJoin('licenses', 'licenses.id', 'cameras.license_id')
      .selectAll('cameras')
      .select('licenses.code as license_code')
      .where('cameras.license_id', '=', licenseId);
    if (filter.status === 'no_data') q = q.where('cameras.latest_status', 'is', null);
    else if (filter.status) q = q.where('cameras.latest_status', '=', filter.status);
    q = q.orderBy('cameras.id').limit(filter.limit ?? 10_000).offset(filter.offset ?? 0);
    const rows = await q.execute();
    const tags = await this.tagsOf(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, tags: tags.get(r.id) ?? [] }));
  }

  async setLatest(cameraId: number, status: string, logId: number): Promise<void> {
    await this.db.updateTable('cameras').set({ latest_status: status, latest_log_id: logId }).where('id', '=', cameraId).execute();
  }

  async setReference(cameraId: number, imageId: number, now = Date.now()): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('reference_images').values({ camera_id: cameraId, image_id: imageId, created_at: now }).execute();
      await trx.updateTable('cameras').set({ reference_image_id: imageId, modified_at: now }).where('id', '=', cameraId).execute();
    });
  }

  async setThresholds(cameraId: number, thresholds: string | null, reviewBand: number | null, now = Date.now()): Promise<void> {
    await this.db.updateTable('cameras').set({ thresholds, review_band: reviewBand, modified_at: now }).where('id', '=', cameraId).execute();
  }

  /** Every image that belongs to the camera: log snapshots and all reference images. */
  imagesOf(cameraId: number): Promise<Array<{ id: number; blob_key: string }>> {
    return imagesOfCameras(this.db, [cameraId]);
  }

  async delete(cameraId: number): Promise<void> {
    await this.db.deleteFrom('cameras').where('id', '=', cameraId).execute();
  }

  /** Cameras silent since `before` whose latest status is not already offline. */
  listSilentSince(before: number, limit = 500): Promise<CameraRow[]> {
    return this.db
      .selectFrom('cameras')
      .selectAll()
      .where('last_upload_at', '<', before)
      .where(notOffline)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Marks the camera offline unless it already is or uploaded since `lastUploadAt`; one
   * conditional UPDATE, so of two concurrent sweepers only one wins. */
  async markOffline(cameraId: number, lastUploadAt: number | null): Promise<boolean> {
    const res = await this.db
      .updateTable('cameras')
      .set({ latest_status: 'offline' })
      .where('id', '=', cameraId)
      .where(notOffline)
      .where('last_upload_at', lastUploadAt === null ? 'is' : '=', lastUploadAt)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Display name and notes (dashboard). */
  async setDetails(cameraId: number, details: { name: string; notes: string }, now = Date.now()): Promise<void> {
    await this.db.updateTable('cameras').set({ name: details.name, notes: details.notes, modified_at: now }).where('id', '=', cameraId).execute();
  }

  /** Logs by id (the cameras' latest ones), for the dashboard grid. */
  async logsById(logIds: number[]): Promise<Map<number, Selectable<CameraLogsTable>>> {
    if (logIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('camera_logs').selectAll().where('id', 'in', logIds).execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Public ids of images, to sign many URLs with one query (the dashboard grid). */
  async publicIdsOf(imageIds: number[]): Promise<Map<number, string>> {
    if (imageIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('images').select(['id', 'public_id']).where('id', 'in', imageIds).execute();
    return new Map(rows.map((r) => [r.id, r.public_id]));
  }

  /** The snapshot image of one of the camera's logs; undefined when the log is not the camera's
   * or has no image. */
  async snapshotOf(cameraId: number, logId: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('camera_logs').select('image_id').where('camera_id', '=', cameraId).where('id', '=', logId).executeTakeFirst();
    return row?.image_id ?? undefined;
  }
}

const notOffline = (eb: ExpressionBuilder<Database, 'cameras'>) => eb.or([eb('latest_status', 'is', null), eb('latest_status', '!=', 'offline')]);
