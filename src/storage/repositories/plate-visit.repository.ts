import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { PlateVisitsTable } from '../db/schema.js';
import type { ReadCursor } from './plate-read.repository.js';

export type PlateVisitRow = Selectable<PlateVisitsTable>;

export interface VisitFilter {
  /** Folded plate (src/domain/plates/plate-keys.ts). */
  plateKey?: string;
  cameraId?: string;
  /** Visits seen at or after `from` and before `until`. */
  from?: number;
  until?: number;
  /** After this visit, by last seen (newest first). */
  after?: ReadCursor;
  limit: number;
}

export class PlateVisitRepository {
  constructor(private readonly db: Db) {}

  /** The visit a read of `plateKey` at `readAt` joins: same camera, no more than `gapMs` from
   * its reads so far. */
  findOpen(accountId: number, cameraId: string | null, plateKey: string, readAt: number, gapMs: number): Promise<PlateVisitRow | undefined> {
    return this.db.selectFrom('plate_visits').selectAll()
      .where('account_id', '=', accountId).where('plate_key', '=', plateKey)
      .where('camera_id', cameraId === null ? 'is' : '=', cameraId)
      .where('last_seen', '>=', readAt - gapMs).where('first_seen', '<=', readAt + gapMs)
      .orderBy('last_seen', 'desc').limit(1).executeTakeFirst();
  }

  create(values: Omit<Insertable<PlateVisitsTable>, 'id'>): Promise<PlateVisitRow> {
    return this.db.insertInto('plate_visits').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, values: Partial<Omit<PlateVisitRow, 'id' | 'account_id'>>): Promise<void> {
    await this.db.updateTable('plate_visits').set(values).where('id', '=', id).execute();
  }

  find(accountId: number, id: number): Promise<PlateVisitRow | undefined> {
    return this.db.selectFrom('plate_visits').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /** An account's visits, the latest seen first. */
  list(accountId: number, f: VisitFilter): Promise<PlateVisitRow[]> {
    let q = this.db.selectFrom('plate_visits').selectAll().where('account_id', '=', accountId);
    if (f.plateKey !== undefined) q = q.where('plate_key', '=', f.plateKey);
    if (f.cameraId !== undefined) q = q.where('camera_id', '=', f.cameraId);
    if (f.from !== undefined) q = q.where('last_seen', '>=', f.from);
    if (f.until !== undefined) q = q.where('first_seen', '<', f.until);
    if (f.after) {
      const { readAt, id } = f.after;
      q = q.where((eb) => eb.or([eb('last_seen', '<', readAt), eb.and([eb('last_seen', '=', readAt), eb('id', '<', id)])]));
    }
    return q.orderBy('last_seen', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
  }

  /** Visits no read belongs to any more (retention removed them). */
  async removeEmpty(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('plate_visits').where('id', 'in', ids)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('plate_reads').select(sql.lit(1).as('one')).whereRef('plate_reads.visit_id', '=', 'plate_visits.id'))))
      .execute();
  }
}
