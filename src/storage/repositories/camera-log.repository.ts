import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { CameraLogsTable } from '../db/schema.js';

export type CameraLogRow = Selectable<CameraLogsTable>;

export interface LogFilter {
  from?: number;
  /** Exclusive upper bound. */
  until?: number;
  status?: string;
  limit: number;
  offset: number;
}

export class CameraLogRepository {
  constructor(private readonly db: Db) {}

  async insert(values: Omit<CameraLogRow, 'id'>): Promise<CameraLogRow> {
    return this.db.insertInto('camera_logs').values(values).returningAll().executeTakeFirstOrThrow();
  }

  findByImage(imageId: number): Promise<CameraLogRow | undefined> {
    return this.db.selectFrom('camera_logs').selectAll().where('image_id', '=', imageId).executeTakeFirst();
  }

  async update(id: number, values: Partial<Omit<CameraLogRow, 'id'>>): Promise<CameraLogRow> {
    return this.db.updateTable('camera_logs').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** Most recent first. */
  list(cameraId: number, f: LogFilter): Promise<CameraLogRow[]> {
    let q = this.db.selectFrom('camera_logs').selectAll().where('camera_id', '=', cameraId);
    if (f.from !== undefined) q = q.where('created_at', '>=', f.from);
    if (f.until !== undefined) q = q.where('created_at', '<', f.until);
    if (f.status) q = q.where('status', '=', f.status);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute();
  }

  /** Scores of the camera's most recent analysed logs uploaded before `before`, newest first. */
  async recentScores(cameraId: number, before: number, count: number): Promise<Array<Record<string, number>>> {
    const rows = await this.db
      .selectFrom('camera_logs')
      .select('scores')
      .where('camera_id', '=', cameraId)
      .where('created_at', '<', before)
      .where('status', 'in', ['normal', 'anomaly', 'under_review'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(count)
      .execute();
    return rows.map((r) => (r.scores ? (JSON.parse(r.scores) as Record<string, number>) : {}));
  }
}
