import type { Db } from '../db/database.js';

export interface TokenOwner {
  tokenId: number;
  accountId: number;
  lastUsedAt: number | null;
}

export class TokenRepository {
  constructor(private readonly db: Db) {}

  async create(accountId: number, tokenHash: string, tokenPrefix: string, now = Date.now()): Promise<number> {
    const row = await this.db
      .insertInto('api_tokens')
      .values({ account_id: accountId, token_hash: tokenHash, token_prefix: tokenPrefix, created_at: now, last_used_at: null, revoked_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Lookup by hash: the secret itself is never stored or compared. */
  async findActiveByHash(tokenHash: string): Promise<TokenOwner | undefined> {
    const row = await this.db
      .selectFrom('api_tokens')
      .select(['id', 'account_id', 'last_used_at'])
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && { tokenId: row.id, accountId: row.account_id, lastUsedAt: row.last_used_at };
  }

  async touch(tokenId: number, now = Date.now()): Promise<void> {
    await this.db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', tokenId).execute();
  }

  /** Returns whether an active token was revoked. */
  async revokeByHash(tokenHash: string, now = Date.now()): Promise<boolean> {
    const res = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: now })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
