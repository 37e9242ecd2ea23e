import type { Db } from '../db/database.js';

export interface LiveState {
  /** Changes whenever a camera of the account gets a new log or status (or appears or leaves). */
  cameras: string;
  /** The account's newest alert id (0 without alerts). */
  lastAlertId: number;
  /** The account's newest plate read id (0 without reads). */
  lastPlateReadId: number;
}

/** The three cheap reads behind the dashboard's live updates, polled per connected account: they
 * see writes made by any process sharing the database (API and workers scaled out). */
export class LiveStateRepository {
  constructor(private readonly db: Db) {}

  async of(accountId: number): Promise<LiveState> {
    const [cameras, alert, read] = await Promise.all([
      this.db.selectFrom('cameras').select(['id', 'latest_status', 'latest_log_id', 'modified_at']).where('account_id', '=', accountId).orderBy('id').execute(),
      this.db.selectFrom('alerts').select((eb) => eb.fn.max('id').as('id')).where('account_id', '=', accountId).executeTakeFirst(),
      this.db.selectFrom('plate_reads').select((eb) => eb.fn.max('id').as('id')).where('account_id', '=', accountId).executeTakeFirst(),
    ]);
    return {
      cameras: cameras.map((c) => `${c.id}:${c.latest_status ?? ''}:${c.latest_log_id ?? ''}:${c.modified_at}`).join(','),
      lastAlertId: Number(alert?.id ?? 0),
      lastPlateReadId: Number(read?.id ?? 0),
    };
  }

  /** Alerts after `afterId`, oldest first, with the cameras they name. */
  async alertsAfter(accountId: number, afterId: number, limit = 20) {
    const alerts = await this.db.selectFrom('alerts').select(['id', 'license_id', 'created_at']).where('account_id', '=', accountId).where('id', '>', afterId).orderBy('id').limit(limit).execute();
    if (alerts.length === 0) return [];
    const cameras = await this.db.selectFrom('alert_cameras').select(['alert_id', 'name', 'serial', 'status']).where('alert_id', 'in', alerts.map((a) => a.id)).orderBy('id').execute();
    return alerts.map((a) => ({ id: Number(a.id), licenseId: Number(a.license_id), createdAt: Number(a.created_at), cameras: cameras.filter((c) => Number(c.alert_id) === Number(a.id)).map((c) => ({ name: c.name, serial: c.serial, status: c.status })) }));
  }
}
