import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { lowerEquals } from '../db/dialect.js';
import type { SessionsTable } from '../db/schema.js';

export type SessionRow = Selectable<SessionsTable>;

/** Dashboard sign-in: sessions (stored by the SHA-256 of their token) and account passwords. */
export class SessionRepository {
  constructor(private readonly db: Db) {}

  async create(values: SessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(values).execute();
  }

  /** An unexpired session. */
  findLive(id: string, now: number): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  async deleteForAccount(accountId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('account_id', '=', accountId).execute();
  }

  async purgeExpired(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }

  async passwordHashByEmail(email: string): Promise<{ accountId: number; hash: string | null } | undefined> {
    const row = await this.db.selectFrom('accounts').select(['id', 'password_hash']).where(lowerEquals('email', email)).executeTakeFirst();
    return row && { accountId: row.id, hash: row.password_hash };
  }

  async setPasswordHash(accountId: number, hash: string, now = Date.now()): Promise<void> {
    await this.db.updateTable('accounts').set({ password_hash: hash, modified_at: now }).where('id', '=', accountId).execute();
  }
}

/** API tokens as the dashboard manages them: listed and revoked by id, within one account. */
export class AccountTokenRepository {
  constructor(private readonly db: Db) {}

  list(accountId: number) {
    return this.db
      .selectFrom('api_tokens')
      .select(['id', 'token_prefix', 'created_at', 'last_used_at'])
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('id', 'desc')
      .execute();
  }

  async revoke(accountId: number, tokenId: number, now = Date.now()): Promise<boolean> {
    const res = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
