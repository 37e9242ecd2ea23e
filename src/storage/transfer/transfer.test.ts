import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli.js';
import { sceneJpeg } from '../../../test/fixtures/images.js';
import { multipartBody } from '../../../test/helpers/multipart.js';
import { buildTestApp } from '../../../test/helpers/test-app.js';
import { plateKeys } from '../../domain/plates/plate-keys.js';
import { migrations } from '../db/migrations/index.js';
import { PlateReadRepository } from '../repositories/plate-read.repository.js';
import { TABLES } from './tables.js';

const PG = process.env.VIGIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const pgUp = await (async () => {
  const c = new pg.Client({ connectionString: `${PG}/postgres`, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
})();

describe('export and import', () => {
  const dirs: string[] = [];
  const tmp = async (p: string) => {
    const d = await fs.mkdtemp(path.join(os.tmpdir(), p));
    dirs.push(d);
    return d;
  };
  afterAll(async () => {
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
  });

  it('covers every table the migrations create', async () => {
    const t = await buildTestApp({}, { workers: false });
    try {
      const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(t.container.db).catch(() => ({ rows: [] as Array<{ name: string }> }));
      if (rows.rows.length) expect(TABLES.map((x) => x.name).sort()).toEqual(rows.rows.map((r) => r.name).sort());
      expect(Object.keys(migrations).length).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });

  it('imports an export made before plate search keys carried their camera', async () => {
    const source = await tmp('vigil-export-keys-');
    const t = await buildTestApp({}, { dataDir: source, workers: false });
    const { account } = await t.container.accounts.create('keys@example.com', ['plate-reader']);
    await new PlateReadRepository(t.container.db).insert([{ account_id: account.id, camera_id: 'gate', read_at: 1000, plate: 'abc1234', score: 0.9, dscore: 0.9, region: 'us',
      candidates: '[]', box: '{}', vehicle: null, image_id: null, visit_id: null, created_at: 1000, keys: plateKeys('abc1234') }]);
    await t.close();
    const out = await tmp('vigil-export-keys-out-');
    const io = (env: NodeJS.ProcessEnv) => ({ env: { LOG_LEVEL: 'silent', ...env }, out: () => {}, err: () => {} });
    expect(await runCli(['export', '--out', out, '--json'], io({ DATA_DIR: source }))).toBe(0);
    // As an export from before migration 010 wrote the keys: no camera column.
    const keysFile = path.join(out, 'tables', 'plate_read_keys.ndjson');
    const rows = (await fs.readFile(keysFile, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.length).toBeGreaterThan(0);
    await fs.writeFile(keysFile, rows.map(({ camera_id: _camera, ...r }) => JSON.stringify(r)).join('\n') + '\n');
    const target = await tmp('vigil-import-keys-');
    expect(await runCli(['import', '--from', out, '--json'], io({ DATA_DIR: target }))).toBe(0);
    const moved = await buildTestApp({}, { dataDir: target, workers: false });
    try {
      const found = await new PlateReadRepository(moved.container.db).list(account.id, { keys: plateKeys('abc1284'), cameraId: 'gate', limit: 10 });
      expect(found.map((r) => r.plate)).toEqual(['abc1234']);
    } finally {
      await moved.close();
    }
  });

  it.skipIf(!pgUp)('moves an embedded installation to PostgreSQL without losing a log or an image', async () => {
    const source = await tmp('vigil-export-src-');
    const t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000', DATABASE_URL: `sqlite:${path.join(source, 'vigil.db')}` }, { dataDir: source });
    const a = await t.account();
    const lic = await t.container.licenses.create({ accountId: a.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    for (const seed of [1, 2, 3]) {
      const { payload, headers } = await multipartBody({ upload: { bytes: await sceneJpeg(320, 240, seed) }, camera_id: 'MOVE', tag: 'dock' });
      expect((await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } })).statusCode).toBe(201);
    }
    await t.container.runner.drain();
    const before = (await t.app.inject({ url: `/v1/camera-monitoring/${lic.id}/cameras/MOVE/logs/`, headers: a.auth })).json();
    await t.close();

    const out = await tmp('vigil-export-');
    let text = '';
    const io = (env: NodeJS.ProcessEnv) => ({ env: { LOG_LEVEL: 'silent', ...env }, out: (s: string) => void (text += s), err: () => {} });
    expect(await runCli(['export', '--out', out, '--json'], io({ DATA_DIR: source }))).toBe(0);
    const exported = JSON.parse(text);
    expect(exported.tables.camera_logs).toBe(3);
    expect(exported.blobs).toBe(3);

    const name = `vigil_import_${process.pid}`;
    const admin = new pg.Client({ connectionString: `${PG}/postgres` });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const target = await tmp('vigil-import-');
    try {
      text = '';
      expect(await runCli(['import', '--from', out, '--json'], io({ DATA_DIR: target, DATABASE_URL: `${PG}/${name}` }))).toBe(0);
      expect(JSON.parse(text)).toEqual(exported);
      // The moved installation answers the same, with the same token, and keeps counting ids.
      const moved = await buildTestApp({ DATABASE_URL: `${PG}/${name}`, CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000' }, { dataDir: target });
      try {
        const after = (await moved.app.inject({ url: `/v1/camera-monitoring/${lic.id}/cameras/MOVE/logs/`, headers: a.auth })).json();
        expect(after.map((l: { id: number; status: string }) => [l.id, l.status])).toEqual(before.map((l: { id: number; status: string }) => [l.id, l.status]));
        const img = await moved.app.inject({ url: after[0].snapshot.replace('http://vigil.test', '') });
        expect(img.statusCode).toBe(200);
        const { payload, headers } = await multipartBody({ upload: { bytes: await sceneJpeg(320, 240, 4) }, camera_id: 'MOVE' });
        expect((await moved.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } })).statusCode).toBe(201);
        await moved.container.runner.drain();
        const logs = (await moved.app.inject({ url: `/v1/camera-monitoring/${lic.id}/cameras/MOVE/logs/`, headers: a.auth })).json();
        expect(logs).toHaveLength(4);
        expect(logs[0].id).toBeGreaterThan(before[0].id);
        text = '';
        expect(await runCli(['import', '--from', out, '--json'], io({ DATA_DIR: target, DATABASE_URL: `${PG}/${name}` }))).toBe(1);
        expect(JSON.parse(text).error.message).toMatch(/empty installation/);
      } finally {
        await moved.close();
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
