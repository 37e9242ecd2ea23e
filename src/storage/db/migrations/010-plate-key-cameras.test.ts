import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { plateKeys } from '../../../domain/plates/plate-keys.js';
import { AccountRepository } from '../../repositories/account.repository.js';
import { PlateReadRepository } from '../../repositories/plate-read.repository.js';
import { migrateToLatest, openDatabase, type Db } from '../database.js';
import { migrations } from './index.js';

let db: Db | undefined;
afterEach(async () => db?.destroy());

describe('migration 010: plate read keys carry their camera', () => {
  it('gives keys written before it their read\'s camera, so a fuzzy search at one camera still finds them', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-m010-'));
    db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'vigil.db') });
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo('009-plate-reads');
    expect(error).toBeUndefined();
    const account = await new AccountRepository(db).create('m010@example.com', ['plate-reader']);
    // Reads and keys as migration 009 wrote them: no camera on the key rows.
    for (const [camera, readAt] of [['gate', 1000], ['yard', 2000]] as const) {
      const { id } = await db.insertInto('plate_reads').values({
        account_id: account.id, camera_id: camera, read_at: readAt, plate: 'abc1234', score: 0.9, dscore: 0.9, region: 'us',
        candidates: '[]', box: '{}', vehicle: null, image_id: null, visit_id: null, created_at: readAt,
      }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('plate_read_keys').values(plateKeys('abc1234').map((key) => ({ read_id: id, account_id: account.id, key, read_at: readAt }))).execute();
    }
    await migrateToLatest(db);
    const reads = new PlateReadRepository(db);
    const atGate = await reads.list(account.id, { keys: plateKeys('abc1284'), cameraId: 'gate', limit: 10 });
    expect(atGate.map((r) => [r.plate, r.camera_id])).toEqual([['abc1234', 'gate']]);
    // And a read stored after it.
    await reads.insert([{ account_id: account.id, camera_id: 'gate', read_at: 3000, plate: 'abc1284', score: 0.9, dscore: 0.9, region: 'us', candidates: '[]', box: '{}', vehicle: null, image_id: null, visit_id: null, created_at: 3000, keys: plateKeys('abc1284') }]);
    const again = await reads.list(account.id, { keys: plateKeys('abc1234'), cameraId: 'gate', limit: 10 });
    expect(again.map((r) => r.plate)).toEqual(['abc1284', 'abc1234']);
  });
});
