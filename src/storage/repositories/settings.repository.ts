import type { Db } from '../db/database.js';

export class SettingsRepository {
  constructor(private readonly db: Db) {}

  /** Returns the stored value, storing `make()` first if there is none. Safe when several
   * processes race: the first insert wins and everyone reads it back. */
  async getOrCreate(key: string, make: () => string): Promise<string> {
    await this.db.insertInto('settings').values({ key, value: make() }).onConflict((oc) => oc.column('key').doNothing()).execute();
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return row.value;
  }
}
