import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../fixtures/images.js';
import { dropJobQueue, exited, freePort, REPO_ROOT, runVigil, startVigil, VIGIL_BIN } from '../helpers/processes.js';

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
    await dropJobQueue(`${PG}/${db}`, REDIS).catch(() => {});
    const admin = new pg.Client({ connectionString: `${PG}/postgres` });
    await admin.connect();
    await admin.query(`drop database if exists ${db} with (force)`);
    await admin.end();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('loses no upload, duplicates no log, and holds the interval across API processes', async () => {
    // When this fails on a loaded machine, the message says which step took the time.
    const started = Date.now();
    const steps: string[] = [];
    const step = (name: string) => steps.push(`${name} at ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const timeline = () => steps.join(', ');
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
    step('APIs listening');

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
    step('uploads answered');

    // Workers start on a full queue; one is killed as soon as a job is being worked on.
    const check = new pg.Client({ connectionString: `${PG}/${db}` });
    await check.connect();
    const workers = [0, 1].map(() => spawn(process.execPath, [VIGIL_BIN, 'worker'], { env: { ...process.env, ...env }, cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] }));
    const workerLogs = workers.map((w) => {
      const log = { text: '' };
      w.stderr!.on('data', (d) => (log.text = (log.text + d).slice(-4000)));
      return log;
    });
    children.push(...workers);
    step('workers spawned');
    let survivor!: ChildProcess;
    try {
      // Kill the worker that runs a job right now (the row names its process).
      let victim: ChildProcess | undefined;
      for (let i = 0; i < 1000 && !victim; i++) {
        const running = await check.query("select locked_by from jobs where status = 'running'");
        const pids = running.rows.map((r: { locked_by: string }) => Number(r.locked_by.split(':').pop()));
        victim = workers.find((w) => pids.includes(w.pid!));
        if (!victim) await new Promise((r) => setTimeout(r, 10));
      }
      expect(victim, 'a worker caught mid-job').toBeDefined();
      victim!.kill('SIGKILL');
      step('worker killed mid-job');
      survivor = workers.find((w) => w !== victim)!;
      const deadline = Date.now() + 45_000;
      // The killed worker's job may have written its log before dying: its row stays running
      // until the lock expires and the survivor re-runs it (and finds the log), so wait for both.
      const undone = async () => Number((await check.query("select count(*) as n from jobs where kind = 'camera.analyze' and status <> 'done'")).rows[0].n);
      let logs = 0;
      while (Date.now() < deadline) {
        logs = Number((await check.query('select count(*) as n from camera_logs')).rows[0].n);
        if (logs >= cameras.length && (await undone()) === 0) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      step('queue drained');
      const jobs = async () => JSON.stringify((await check.query("select status, attempts, locked_by, last_error from jobs where kind = 'camera.analyze' and status <> 'done'")).rows);
      expect(logs, `logs written before the deadline; ${timeline()}; unfinished ${await jobs()}; worker output ${JSON.stringify(workerLogs)}`).toBe(cameras.length);
      const perImage = await check.query('select image_id, count(*) as n from camera_logs group by image_id having count(*) > 1');
      expect(perImage.rows).toEqual([]);
      expect(Number((await check.query('select count(*) as n from images')).rows[0].n)).toBe(cameras.length);
      expect(await undone(), `analysis jobs not done: ${await jobs()}; ${timeline()}`).toBe(0);
      // Every job went through BullMQ (relayed from the outbox), none was run from the table.
      const relayed = await check.query("select count(*) as n from jobs where locked_by not like 'bullmq%' or locked_by is null");
      expect(Number(relayed.rows[0].n), 'jobs not relayed to BullMQ').toBe(0);
    } finally {
      await check.end();
    }
    for (const c of [...apis, survivor]) c.kill('SIGTERM');
    for (const c of [...apis, survivor]) expect(await exited(c), `exit code of ${c.spawnargs.slice(2).join(' ')}; ${timeline()}`).toBe(0);
    step('stopped');
  }, 150_000);
});
