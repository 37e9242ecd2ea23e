import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ImagesTable } from '../db/schema.js';

export type ImageRow = Selectable<ImagesTable>;

export class ImageRepository {
  constructor(private readonly db: Db) {}

  async create(values: Omit<ImageRow, 'id'>): Promise<ImageRow> {
    return this.db.insertInto('images').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async findByPublicId(publicId: string): Promise<ImageRow | undefined> {
    return this.db.selectFrom('images').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  }

  async findById(id: number): Promise<ImageRow | undefined> {
    return this.db.selectFrom('images').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Public ids of the images that exist among `ids` (one query for a page of logs or visits). */
  async publicIdsOf(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('images').select(['id', 'public_id']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((r) => [r.id, r.public_id]));
  }

  /** Every image of the account (row id and blob key): what removing the account must delete. */
  async keysForAccount(accountId: number): Promise<Array<Pick<ImageRow, 'id' | 'blob_key'>>> {
    return this.db.selectFrom('images').select(['id', 'blob_key']).where('account_id', '=', accountId).execute();
  }

  async deleteByIds(ids: number[]): Promise<void> {
    if (ids.length > 0) await this.db.deleteFrom('images').where('id', 'in', ids).execute();
  }
}
