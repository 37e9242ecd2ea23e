import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../fixtures/images.js';
import { multipartBody } from '../helpers/multipart.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const onPostgres = process.env.VIGIL_TEST_DB === 'postgres';
const PG = new URL(process.env.VIGIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432');
const CREATE_LOG = '/v1/camera-monitoring/create-log/';
/** Far below the 60 s request timeout: an outage must be answered, not waited out. */
const ANSWER_WITHIN_MS = 10_000;

/** PostgreSQL behind a TCP proxy that the test cuts (every connection destroyed, new ones
 * refused) for a few seconds while uploads keep coming, then restores. */
describe.skipIf(!onPostgres)('a database that goes away and comes back', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  const dbName = `vigil_t_outage_${process.pid}_${Date.now()}`;
  const admin = async (query: string) => {
    const c = new pg.Client({ connectionString: new URL('/postgres', PG).toString() });
    await c.connect();
    try {
      await c.query(query);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    await admin(`create database ${dbName}`);
    proxy = await startTcpProxy({ host: PG.hostname, port: Number(PG.port || 5432) });
    const url = new URL(`/${dbName}`, PG);
    url.port = String(proxy.port);
    url.hostname = '127.0.0.1';
    t = await buildTestApp(
      // A job whose bookkeeping the outage interrupted is taken again when its lease expires.
      { DATABASE_URL: url.toString(), CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000', JOB_LEASE_SECONDS: '3' },
      // Retries a second apart: the analyses that fail during the outage succeed after it.
      { retryBackoff: () => 1000 },
    );
  });
  afterAll(async () => {
    proxy?.restore();
    await t?.close();
    await proxy?.close();
    await admin(`drop database if exists ${dbName} with (force)`);
  });

  it('answers 503 while it is gone, serves again without a restart, and loses or duplicates no upload', async () => {
    const a = await t.account();
    await t.container.licenses.create({ accountId: a.id, size: 100, expiration: new Date(Date.now() + 86_400_000) });
    const frame = await sceneJpeg(320, 240, 11);
    let n = 0;
    const upload = async () => {
      const form = await multipartBody({ upload: { bytes: frame }, camera_id: `DB-${n++ % 5}` });
      const started = Date.now();
      const res = await Promise.race([
        t.app.inject({ method: 'POST', url: CREATE_LOG, payload: form.payload, headers: { ...form.headers, ...a.auth } }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('upload hung')), ANSWER_WITHIN_MS)),
      ]);
      expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
      return res;
    };
    let accepted = 0;
    // Before: a few uploads, whose analyses are still running when the database goes.
    for (let i = 0; i < 4; i++) {
      expect((await upload()).statusCode).toBe(201);
      accepted++;
    }

    proxy.cut();
    const outageEnds = Date.now() + 3000;
    let refused = 0;
    while (Date.now() < outageEnds) {
      const res = await upload();
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ message: expect.any(String), code: 'database_unavailable' });
      expect(res.headers['retry-after']).toBeDefined();
      refused++;
      const ready = await t.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'not_ready', checks: { database: expect.any(String) } });
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(refused).toBeGreaterThan(3);

    // A partition: connections neither refused nor answered. Still a 503, not a hang.
    proxy.blackhole();
    const silent = await upload();
    expect(silent.statusCode, silent.body).toBe(503);
    expect(silent.json()).toMatchObject({ code: 'database_unavailable' });
    proxy.restore();

    // After: the same process serves again.
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await upload()).statusCode).toBe(201);
      accepted++;
    }
    await t.container.runner.drain(60_000);

    const db = t.container.db;
    const images = await db.selectFrom('images').select('id').execute();
    const logs = await db.selectFrom('camera_logs').select(['image_id', 'status']).execute();
    expect(images).toHaveLength(accepted);
    expect(logs).toHaveLength(accepted);
    expect(new Set(logs.map((l) => l.image_id)).size).toBe(accepted);
    // Every one analysed to a result (not left pending or given up on).
    for (const l of logs) expect(['normal', 'anomaly', 'config_issue'], String(l.status)).toContain(l.status);
    const jobs = await db.selectFrom('jobs').select(['kind', 'status']).where('kind', '=', 'camera.analyze').execute();
    expect(jobs.filter((j) => j.status !== 'done')).toEqual([]);
  }, 90_000);
});

/** SQLite: another process (the CLI, a backup) holds the write lock longer than busy_timeout. */
describe.skipIf(onPostgres)('a locked SQLite database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000' }, { workers: false });
  });
  afterAll(async () => t.close());

  it('answers an upload 503 while the write lock is held elsewhere, then 201 once it is released', async () => {
    const a = await t.account();
    await t.container.licenses.create({ accountId: a.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    const form = await multipartBody({ upload: { bytes: await sceneJpeg(160, 120, 12) }, camera_id: 'LOCKED' });
    const send = () => t.app.inject({ method: 'POST', url: CREATE_LOG, payload: form.payload, headers: { ...form.headers, ...a.auth } });
    const other = new SQLite(path.join(t.dataDir, 'vigil.db'));
    try {
      other.exec('BEGIN EXCLUSIVE');
      const res = await send();
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ message: expect.any(String), code: 'database_unavailable' });
      expect(res.headers['retry-after']).toBeDefined();
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
    expect((await send()).statusCode).toBe(201);
    expect(await t.container.db.selectFrom('images').select('id').execute()).toHaveLength(1);
    expect(await t.container.db.selectFrom('jobs').select('id').execute()).toHaveLength(1);
  }, 30_000);
});
