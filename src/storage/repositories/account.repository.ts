import type { Db } from '../db/database.js';
import { lowerEquals } from '../db/dialect.js';
import type { Feature } from '../../domain/features.js';

export interface AccountRow {
  id: number;
  email: string;
  features: Feature[];
  createdAt: number;
}

const toRow = (r: { id: number; email: string; features: string; created_at: number }): AccountRow => ({
  id: r.id,
  email: r.email,
  features: JSON.parse(r.features) as Feature[],
  createdAt: r.created_at,
});

export class AccountRepository {
  constructor(private readonly db: Db) {}

  async create(email: string, features: Feature[], now = Date.now()): Promise<AccountRow> {
    const row = await this.db
      .insertInto('accounts')
      .values({ email, features: JSON.stringify(features), password_hash: null, created_at: now, modified_at: now })
      .returning(['id', 'email', 'features', 'created_at'])
      .executeTakeFirstOrThrow();
    return toRow(row);
  }

  async findByEmail(email: string): Promise<AccountRow | undefined> {
    const row = await this.db
      .selectFrom('accounts')
      .select(['id', 'email', 'features', 'created_at'])
      .where(lowerEquals('email', email))
      .executeTakeFirst();
    return row && toRow(row);
  }

  async findById(id: number): Promise<AccountRow | undefined> {
    const row = await this.db.selectFrom('accounts').select(['id', 'email', 'features', 'created_at']).where('id', '=', id).executeTakeFirst();
    return row && toRow(row);
  }

  /** Deletes the account and, by foreign keys, everything it owns (licenses, cameras, logs,
   * tokens, webhooks, usage, image rows); the image bytes are the caller's to delete. */
  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('accounts').where('id', '=', id).execute();
  }

  async list(): Promise<AccountRow[]> {
    return (await this.db.selectFrom('accounts').select(['id', 'email', 'features', 'created_at']).orderBy('id').execute()).map(toRow);
  }
}
