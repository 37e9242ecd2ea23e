import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { LicensesTable } from '../db/schema.js';
import { imagesOfCameras } from './camera.repository.js';

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

  /** Deletes the license; its cameras, their logs, references and alert links go with it (foreign keys). */
  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('licenses').where('id', '=', id).execute();
  }

  /** The stored images of every camera of the license: log uploads and references. */
  async imagesOf(id: number): Promise<Array<{ id: number; blob_key: string }>> {
    const cameras = await this.db.selectFrom('cameras').select('id').where('license_id', '=', id).execute();
    return imagesOfCameras(this.db, cameras.map((c) => c.id));
  }
}
