import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../fixtures/images.js';
import { exited, freePort, REPO_ROOT, runVigil, startVigil, VIGIL_BIN } from '../helpers/processes.js';

const PG = process.env.VIGIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS = process.env.VIGIL_TEST_REDIS ?? 'redis://127.0.0.1:6379';

async function reachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: `${PG}/postgres`, connectionTimeoutMillis: 2000 });
  const r = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  try {
    await c.connect();
    await r.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
    r.disconnect();
  }
}

const available = await reachable();

/** Two API processes and two worker processes on PostgreSQL and Redis: uploads go to both APIs,
 * one worker is killed with SIGKILL mid-queue, and every accepted upload still gets exactly one
 * log while the per-camera interval holds across the APIs. */
describe.skipIf(!available)('scale out on PostgreSQL and Redis', () => {
  const db = `vigil_scale_${process.pid}`;
  const children: ChildProcess[] = [];
  let dataDir = '';
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    const admin = new pg.Client({ connectionString: `${PG}/postgres` });
    await admin.connect();
    await admin.query(`drop database if exists ${db} with (force)`);
    await admin.end();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('loses no upload, duplicates no log, and holds the interval across API processes', async () => {
    const admin = new pg.Client({ connectionString: `${PG}/postgres` });
    await admin.connect();
    await admin.query(`drop database if exists ${db} with (force)`);
    await admin.query(`create database ${db}`);
    await admin.end();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-scale-'));
    const env = {
      DATA_DIR: dataDir, DATABASE_URL: `${PG}/${db}`, REDIS_URL: REDIS, LOG_LEVEL: 'warn', RUN_MIGRATIONS: 'false',
      CAMERA_UPLOAD_INTERVAL_SECONDS: '3600', UPLOAD_RATE_PER_SECOND: '1000', JOB_LEASE_SECONDS: '2', WORKER_THREADS: '1',
    };
    expect((await runVigil(['migrate', '--json'], env)).code).toBe(0);
    const ports = [await freePort(), await freePort()];
    const apis = await Promise.all(ports.map((p) => startVigil(['--role', 'api'], env, p)));
    children.push(...apis);

    const { token } = JSON.parse((await runVigil(['accounts', 'create', '--email', 'fleet@example.com', '--json'], env)).stdout);
    expect((await runVigil(['licenses', 'create', '--account', 'fleet@example.com', '--size', '100', '--json'], env)).code).toBe(0);
    const scene = await sceneJpeg(640, 360, 17);
    const blurred = await sharp(scene).blur(6).jpeg().toBuffer();
    const cameras = Array.from({ length: 16 }, (_, i) => `YARD-${i}`);
    const post = async (port: number, serial: string, bytes: Buffer) => {
      const form = new FormData();
      form.append('upload', new Blob([bytes], { type: 'image/jpeg' }), 'f.jpg');
      form.append('camera_id', serial);
      const res = await fetch(`http://127.0.0.1:${port}/v1/camera-monitoring/create-log/`, { method: 'POST', body: form, headers: { authorization: `Token ${token}` } });
      return res.status;
    };
    // Each camera uploads to both APIs at once: exactly one may win the interval.
    const statuses = await Promise.all(cameras.map(async (serial, i) => {
      const bytes = i % 2 ? blurred : scene;
      return Promise.all([post(ports[0]!, serial, bytes), post(ports[1]!, serial, bytes)]);
    }));
    for (const pair of statuses) expect(pair.slice().sort(), JSON.stringify(statuses)).toEqual([201, 429]);

    // Workers start on a full queue; one is killed as soon as a job is being worked on.
    const check = new pg.Client({ connectionString: `${PG}/${db}` });
    await check.connect();
    const workers = [0, 1].map(() => spawn(process.execPath, [VIGIL_BIN, 'worker'], { env: { ...process.env, ...env }, cwd: REPO_ROOT, stdio: 'ignore' }));
    children.push(...workers);
    try {
      for (let i = 0; i < 400; i++) {
        const running = await check.query("select count(*) as n from jobs where status = 'running'");
        if (Number(running.rows[0].n) > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      workers[0]!.kill('SIGKILL');
      const deadline = Date.now() + 45_000;
      let logs = 0;
      while (Date.now() < deadline) {
        logs = Number((await check.query('select count(*) as n from camera_logs')).rows[0].n);
        if (logs >= cameras.length) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(logs, 'logs written before the deadline').toBe(cameras.length);
      const perImage = await check.query('select image_id, count(*) as n from camera_logs group by image_id having count(*) > 1');
      expect(perImage.rows).toEqual([]);
      expect(Number((await check.query('select count(*) as n from images')).rows[0].n)).toBe(cameras.length);
      const done = await check.query("select count(*) as n from jobs where kind = 'camera.analyze' and status <> 'done'");
      expect(Number(done.rows[0].n)).toBe(0);
    } finally {
      await check.end();
    }
    for (const c of [...apis, workers[1]!]) c.kill('SIGTERM');
    for (const c of [...apis, workers[1]!]) expect(await exited(c), `exit code of ${c.spawnargs.slice(2).join(' ')}`).toBe(0);
  }, 90_000);
});
