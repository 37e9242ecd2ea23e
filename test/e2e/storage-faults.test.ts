import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../../src/storage/db/dialect.js';
import { StorageFullError, type BlobStore } from '../../src/storage/blobs/blob-store.js';
import { FsBlobStore } from '../../src/storage/blobs/fs-blob-store.js';
import { sceneJpeg } from '../fixtures/images.js';
import { multipartBody } from '../helpers/multipart.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/** A disk that fills up: uploads are refused with 503 and Retry-After, nothing half-written is
 * left (no camera slot taken, no job, no image row), and uploads work again once there is room. */
describe('full disk', () => {
  let t: TestApp;
  let full = false;
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-full-'));
    const real = new FsBlobStore(root);
    const disk: BlobStore = {
      put: async (key, bytes) => {
        // What FsBlobStore turns ENOSPC into (see fs-blob-store.test.ts).
        if (full) throw new StorageFullError(`No space left to store ${key}.`);
        return real.put(key, bytes);
      },
      get: (key) => real.get(key),
      delete: (key) => real.delete(key),
      deletePrefix: (prefix) => real.deletePrefix(prefix),
    };
    t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '900', UPLOAD_RATE_PER_SECOND: '1000' }, { blobs: disk, workers: false });
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('refuses uploads with 503 while full and keeps nothing, then accepts them again', async () => {
    const a = await t.account();
    await t.container.licenses.create({ accountId: a.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    const { payload, headers } = await multipartBody({ upload: { bytes: await sceneJpeg(160, 120, 8) }, camera_id: 'DISK' });
    full = true;
    const refused = await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json()).toMatchObject({ code: 'storage_full' });
    expect(await t.container.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
    expect(await t.container.db.selectFrom('images').selectAll().execute()).toEqual([]);
    full = false;
    // The interval slot was not taken by the refused upload.
    const accepted = await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } });
    expect(accepted.statusCode).toBe(201);
    expect(await t.container.db.selectFrom('jobs').selectAll().execute()).toHaveLength(1);
  });
});

/** The database refuses the upload's transaction after its image bytes were written (here a
 * trigger fails the job insert, as a dropped connection or a constraint would): the 5xx leaves
 * no row and no orphaned file behind, and the next upload works. */
describe('database failure after the image was written', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-orphans-'));
    t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '900', UPLOAD_RATE_PER_SECOND: '1000' }, { blobs: new FsBlobStore(root), workers: false });
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  const files = async () => (await fs.readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && !e.name.startsWith('.'));

  it('removes the written bytes when the transaction fails', async () => {
    const db = t.container.db;
    const pg = dialectOf(db) === 'postgres';
    if (pg) {
      await sql`create function vigil_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`.execute(db);
      await sql`create trigger refuse_jobs before insert on jobs for each row execute function vigil_test_refuse()`.execute(db);
    } else {
      await sql`create trigger refuse_jobs before insert on jobs begin select raise(abort, 'refused by test'); end`.execute(db);
    }
    const a = await t.account();
    await t.container.licenses.create({ accountId: a.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    const { payload, headers } = await multipartBody({ upload: { bytes: await sceneJpeg(160, 120, 9) }, camera_id: 'ORPHAN' });
    const failed = await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } });
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    expect(await db.selectFrom('images').selectAll().execute()).toEqual([]);
    expect(await files()).toEqual([]);

    await sql`drop trigger refuse_jobs${sql.raw(pg ? ' on jobs' : '')}`.execute(db);
    const accepted = await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } });
    expect(accepted.statusCode).toBe(201);
    expect(await files()).toHaveLength(1);
  });
});
