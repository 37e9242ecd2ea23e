import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { WatchlistPlatesTable, WatchlistsTable } from '../db/schema.js';

export type WatchlistRow = Selectable<WatchlistsTable>;
export type WatchlistPlateRow = Selectable<WatchlistPlatesTable>;

export class WatchlistRepository {
  constructor(private readonly db: Db) {}

  /** A new list with its plates; call inside a transaction. */
  async create(values: Omit<WatchlistRow, 'id'>, plates: ReadonlyArray<{ plate: string; note: string }>): Promise<WatchlistRow> {
    const list = await this.db.insertInto('watchlists').values(values).returningAll().executeTakeFirstOrThrow();
    await this.setPlates(list, plates);
    return list;
  }

  findByName(accountId: number, name: string): Promise<WatchlistRow | undefined> {
    return this.db.selectFrom('watchlists').selectAll().where('account_id', '=', accountId).where('name', '=', name).executeTakeFirst();
  }

  find(accountId: number, id: number): Promise<WatchlistRow | undefined> {
    return this.db.selectFrom('watchlists').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  list(accountId: number): Promise<WatchlistRow[]> {
    return this.db.selectFrom('watchlists').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
  }

  /** Replaces a list's plates; call inside a transaction. */
  async setPlates(list: Pick<WatchlistRow, 'id' | 'account_id'>, plates: ReadonlyArray<{ plate: string; note: string }>): Promise<void> {
    await this.db.deleteFrom('watchlist_plates').where('watchlist_id', '=', list.id).execute();
    for (let i = 0; i < plates.length; i += 500) {
      await this.db.insertInto('watchlist_plates').values(plates.slice(i, i + 500).map((p) => ({ watchlist_id: list.id, account_id: list.account_id, ...p }))).execute();
    }
  }

  /** The plates of one list, or of every list of the account. */
  plates(accountId: number, watchlistId?: number): Promise<WatchlistPlateRow[]> {
    let q = this.db.selectFrom('watchlist_plates').selectAll().where('account_id', '=', accountId);
    if (watchlistId !== undefined) q = q.where('watchlist_id', '=', watchlistId);
    return q.orderBy('plate').execute();
  }

  async remove(accountId: number, id: number): Promise<boolean> {
    const res = await this.db.deleteFrom('watchlists').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
