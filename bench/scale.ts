/**
 * npm run bench:scale [-- --seconds 15 --concurrency 8]
 *
 * Sustained camera uploads per second with analysis keeping up, through real processes:
 * embedded mode (one `vigil serve`, SQLite) and distributed mode (one API process on
 * PostgreSQL + Redis with 1, 2 and 4 `vigil worker` processes), all in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sceneJpeg } from '../test/fixtures/images.js';
import { exited, freePort, REPO_ROOT, runVigil, startVigil, VIGIL_BIN } from '../test/helpers/processes.js';
import { flag } from './lib/stats.js';

const seconds = Number(flag('seconds', '15'));
const concurrency = Number(flag('concurrency', '8'));
const PG = process.env.VIGIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS = process.env.VIGIL_TEST_REDIS ?? 'redis://127.0.0.1:6379';

interface Run { accepted: number; analysed: number; seconds: number }

async function drive(ports: number[], token: string, countLogs: () => Promise<number>): Promise<Run> {
  const frame = await sceneJpeg(1280, 720, 11);
  const fleet = concurrency * 25;
  let next = 0;
  let accepted = 0;
  const started = Date.now();
  const deadline = started + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async (_, c) => {
    while (Date.now() < deadline) {
      const form = new FormData();
      form.append('upload', new Blob([frame], { type: 'image/jpeg' }), 'frame.jpg');
      form.append('camera_id', `CAM-${next++ % fleet}`);
      const port = ports[c % ports.length]!;
      const res = await fetch(`http://127.0.0.1:${port}/v1/camera-monitoring/create-log/`, { method: 'POST', body: form, headers: { authorization: `Token ${token}` } });
      await res.arrayBuffer();
      if (res.status === 201) accepted++;
    }
  }));
  // Analysis keeps up when the backlog is gone: sustained = analysed / (upload time + drain).
  while ((await countLogs()) < accepted && Date.now() - started < (seconds + 300) * 1000) await new Promise((r) => setTimeout(r, 200));
  return { accepted, analysed: await countLogs(), seconds: (Date.now() - started) / 1000 };
}

async function setup(env: NodeJS.ProcessEnv): Promise<string> {
  expect0((await runVigil(['migrate', '--json'], env)).code);
  const { token } = JSON.parse((await runVigil(['accounts', 'create', '--email', 'bench@example.com', '--json'], env)).stdout);
  expect0((await runVigil(['licenses', 'create', '--account', 'bench@example.com', '--size', '100000', '--json'], env)).code);
  return token;
}

function expect0(code: number | null) {
  if (code !== 0) throw new Error('setup command failed');
}

const common = { LOG_LEVEL: 'warn', CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '100000', WORKER_THREADS: '1', INFERENCE_THREADS: '1' };

async function embedded(): Promise<Run> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-scale-emb-'));
  const env = { ...common, DATA_DIR: dataDir };
  const token = await setup(env);
  const port = await freePort();
  const server = await startVigil([], env, port);
  const { openDatabase } = await import('../src/storage/db/database.js');
  const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'vigil.db') });
  try {
    return await drive([port], token, async () => Number((await db.selectFrom('camera_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n));
  } finally {
    server.kill('SIGTERM');
    await exited(server);
    await db.destroy();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function distributed(workerCount: number): Promise<Run> {
  const name = `vigil_bench_${process.pid}_${workerCount}`;
  const admin = new pg.Client({ connectionString: `${PG}/postgres` });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-scale-dist-'));
  const env = { ...common, DATA_DIR: dataDir, DATABASE_URL: `${PG}/${name}`, REDIS_URL: REDIS };
  const token = await setup(env);
  const port = await freePort();
  const api = await startVigil(['--role', 'api'], env, port);
  const workers: ChildProcess[] = Array.from({ length: workerCount }, () => spawn(process.execPath, [VIGIL_BIN, 'worker'], { env: { ...process.env, ...env }, cwd: REPO_ROOT, stdio: 'ignore' }));
  const counter = new pg.Client({ connectionString: `${PG}/${name}` });
  await counter.connect();
  try {
    return await drive([port], token, async () => Number((await counter.query('select count(*) as n from camera_logs')).rows[0].n));
  } finally {
    for (const p of [api, ...workers]) p.kill('SIGTERM');
    for (const p of [api, ...workers]) await exited(p);
    await counter.end();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const rate = (r: Run) => r.analysed / r.seconds;
console.log(`\nSustained uploads with analysis keeping up (1280x720 JPEG, ${concurrency} clients for ${seconds} s, ${os.availableParallelism()} cores, 1 analysis thread per process)`);
const base = await embedded();
console.log(`  embedded (serve, SQLite)             ${rate(base).toFixed(1).padStart(6)} uploads/s  (accepted ${base.accepted}, analysed ${base.analysed} in ${base.seconds.toFixed(1)} s)  = ${Math.floor(rate(base) * 900)} cameras at 1 image / 15 min`);
for (const n of [1, 2, 4]) {
  const r = await distributed(n);
  console.log(`  api + ${n} worker process${n > 1 ? 'es' : '  '} (PostgreSQL+Redis) ${rate(r).toFixed(1).padStart(6)} uploads/s  (${(rate(r) / rate(base)).toFixed(2)}x embedded; accepted ${r.accepted}, analysed ${r.analysed} in ${r.seconds.toFixed(1)} s)  = ${Math.floor(rate(r) * 900)} cameras`);
}
