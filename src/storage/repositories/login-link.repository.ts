import type { Db } from '../db/database.js';

/** E-mailed dashboard sign-in links, stored by the SHA-256 of their token. */
export class LoginLinkRepository {
  constructor(private readonly db: Db) {}

  async create(values: { id: string; account_id: number; created_at: number; expires_at: number }): Promise<void> {
    await this.db.insertInto('login_links').values(values).execute();
  }

  /** Deletes an unexpired link and returns its account: one statement, so two clicks racing for
   * the same link cannot both get it. */
  async consume(id: string, now: number): Promise<number | undefined> {
    const row = await this.db.deleteFrom('login_links').where('id', '=', id).where('expires_at', '>', now).returning('account_id').executeTakeFirst();
    return row?.account_id === undefined ? undefined : Number(row.account_id);
  }

  async purgeExpired(now: number): Promise<void> {
    await this.db.deleteFrom('login_links').where('expires_at', '<=', now).execute();
  }
}
