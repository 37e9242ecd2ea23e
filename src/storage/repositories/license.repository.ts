import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { LicensesTable } from '../db/schema.js';

export type LicenseRow = Selectable<LicensesTable>;

export class LicenseRepository {
  constructor(private readonly db: Db) {}

  async create(values: { accountId: number; code: string; size: number; vaType: string; expiration: number }, now = Date.now()): Promise<LicenseRow> {
    return this.db
      .insertInto('licenses')
      .values({ account_id: values.accountId, code: values.code, size: values.size, va_type: values.vaType, expiration: values.expiration, created_at: now, modified_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Most recent first, as the spec lists them. */
  async listForAccount(accountId: number): Promise<LicenseRow[]> {
    return this.db.selectFrom('licenses').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  async findById(id: number): Promise<LicenseRow | undefined> {
    return this.db.selectFrom('licenses').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
