import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AlertCamerasTable, AlertsTable } from '../db/schema.js';

export type AlertRow = Selectable<AlertsTable> & { license_code: string };
export type AlertCameraRow = Selectable<AlertCamerasTable>;

export interface AlertFilter {
  from?: number;
  until?: number;
  licenseCode?: string;
  sent?: boolean;
  limit: number;
  offset: number;
}

export class AlertRepository {
  constructor(private readonly db: Db) {}

  /** The alert of this license still collecting changes, if any. */
  findOpen(licenseId: number, now: number): Promise<Selectable<AlertsTable> | undefined> {
    return this.db
      .selectFrom('alerts')
      .selectAll()
      .where('license_id', '=', licenseId)
      .where('dispatched_at', 'is', null)
      .where('window_closes_at', '>', now)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  create(values: { accountId: number; licenseId: number; windowClosesAt: number }, now = Date.now()) {
    return this.db
      .insertInto('alerts')
      .values({ account_id: values.accountId, license_id: values.licenseId, window_closes_at: values.windowClosesAt, dispatched_at: null, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async addCamera(values: Omit<AlertCameraRow, 'id'>): Promise<void> {
    await this.db.insertInto('alert_cameras').values(values).execute();
  }

  /** Status of the last alert entry of the camera: what a new status is compared with. */
  async lastAlertedStatus(cameraId: number): Promise<string | null> {
    const row = await this.db.selectFrom('alert_cameras').select('status').where('camera_id', '=', cameraId).orderBy('id', 'desc').executeTakeFirst();
    return row?.status ?? null;
  }

  async markDispatched(alertId: number, now = Date.now()): Promise<boolean> {
    const res = await this.db.updateTable('alerts').set({ dispatched_at: now }).where('id', '=', alertId).where('dispatched_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async markSent(alertId: number): Promise<void> {
    await this.db.updateTable('alerts').set({ sent: 1 }).where('id', '=', alertId).execute();
  }

  async findById(alertId: number): Promise<AlertRow | undefined> {
    return this.db
      .selectFrom('alerts')
      .innerJoin('licenses', 'licenses.id', 'alerts.license_id')
      .selectAll('alerts')
      .select('licenses.code as license_code')
      .where('alerts.id', '=', alertId)
      .executeTakeFirst();
  }

  /** Most recent first. */
  list(licenseId: number, f: AlertFilter): Promise<AlertRow[]> {
    let q = this.db
      .selectFrom('alerts')
      .innerJoin('licenses', 'licenses.id', 'alerts.license_id')
      .selectAll('alerts')
      .select('licenses.code as license_code')
      .where('alerts.license_id', '=', licenseId);
    if (f.from !== undefined) q = q.where('alerts.created_at', '>=', f.from);
    if (f.until !== undefined) q = q.where('alerts.created_at', '<', f.until);
    if (f.licenseCode !== undefined) q = q.where('licenses.code', '=', f.licenseCode);
    if (f.sent !== undefined) q = q.where('alerts.sent', '=', f.sent ? 1 : 0);
    return q.orderBy('alerts.created_at', 'desc').orderBy('alerts.id', 'desc').limit(f.limit).offset(f.offset).execute();
  }

  async camerasOf(alertIds: number[]): Promise<Map<number, AlertCameraRow[]>> {
    const out = new Map<number, AlertCameraRow[]>();
    if (alertIds.length === 0) return out;
    const rows = await this.db.selectFrom('alert_cameras').selectAll().where('alert_id', 'in', alertIds).orderBy('id').execute();
    for (const r of rows) out.set(r.alert_id, [...(out.get(r.alert_id) ?? []), r]);
    return out;
  }
}
