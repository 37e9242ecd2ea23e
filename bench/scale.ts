/**
 * npm run bench:scale [-- --seconds 15 --concurrency 8]
 *
 * Sustained camera uploads per second with analysis keeping up, through real processes:
 * embedded mode (one `vigil serve`, SQLite) and distributed mode (one API process on
 * PostgreSQL + Redis/BullMQ with 1, 2 and 4 `vigil worker` processes), all in the same run.
 * Each mode is warmed up (3 s of uploads, analysed) before it is measured. CPU seconds per upload
 * of each kind of process (from /proc/PID/stat) back the estimate of what one more worker machine
 * adds to a cluster: throughput on this shared machine depends on what else runs, CPU per upload
 * much less.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sceneJpeg } from '../test/fixtures/images.js';
import { dropJobQueue, exited, freePort, runVigil, startVigil, startWorker } from '../test/helpers/processes.js';
import { CpuMeter, pidsByName, threadCpuSeconds, threadSplit } from './lib/proc-cpu.js';
import { flag } from './lib/stats.js';
import { driveUploads, waitForCount } from './lib/uploads.js';

const seconds = Number(flag('seconds', '15'));
const concurrency = Number(flag('concurrency', '8'));
const PG = process.env.VIGIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS = process.env.VIGIL_TEST_REDIS ?? 'redis://127.0.0.1:6379';

/** CPU seconds per kind of process over the run (upload time + drain). */
type Cpu = Record<'api' | 'workers' | 'postgres' | 'redis', number>;
/** `client`: this benchmark's own CPU seconds (the upload clients share the machine too);
 * `load`: the machine's 1-minute load average at the end (other work on it). */
interface Run { accepted: number; analysed: number; seconds: number; cpu: Cpu; client: number; load: number; threads?: { main: number; busiest: number; total: number } }

const frame = await sceneJpeg(1280, 720, 11);

async function measure(urls: string[], token: string, countLogs: () => Promise<number>, meters: Partial<Record<keyof Cpu, CpuMeter>>, splitThreadsOf?: number): Promise<Run> {
  // Warm-up: every process loads its analysis threads and models before the measured run.
  const warm = await driveUploads({ urls, token, frame, seconds: 3, concurrency });
  const before = await waitForCount(countLogs, warm.accepted, 300_000);
  for (const m of Object.values(meters)) await m.start();
  const threadsBefore = splitThreadsOf ? await threadCpuSeconds(splitThreadsOf) : undefined;
  const clientBefore = process.cpuUsage();
  const started = Date.now();
  const up = await driveUploads({ urls, token, frame, seconds, concurrency });
  // Analysis keeps up when the backlog is gone: sustained = analysed / (upload time + drain).
  const analysed = (await waitForCount(countLogs, before + up.accepted, 300_000)) - before;
  const elapsed = (Date.now() - started) / 1000;
  const cpu: Cpu = { api: 0, workers: 0, postgres: 0, redis: 0 };
  for (const [k, m] of Object.entries(meters)) cpu[k as keyof Cpu] = await m.stop();
  const threads = splitThreadsOf && threadsBefore ? await threadSplit(splitThreadsOf, threadsBefore) : undefined;
  const client = process.cpuUsage(clientBefore);
  return { accepted: up.accepted, analysed, seconds: elapsed, cpu, client: (client.user + client.system) / 1e6, load: os.loadavg()[0]!, threads };
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
const meterOf = (...procs: ChildProcess[]) => new CpuMeter(async () => procs.map((p) => p.pid!));

async function embedded(): Promise<Run> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-scale-emb-'));
  const env = { ...common, DATA_DIR: dataDir };
  const token = await setup(env);
  const port = await freePort();
  const server = await startVigil([], env, port);
  const { openDatabase } = await import('../src/storage/db/database.js');
  const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'vigil.db') });
  try {
    const count = async () => Number((await db.selectFrom('camera_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return await measure([`http://127.0.0.1:${port}`], token, count, { api: meterOf(server) });
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
  const workers = await Promise.all(Array.from({ length: workerCount }, () => startWorker(env)));
  const counter = new pg.Client({ connectionString: `${PG}/${name}` });
  await counter.connect();
  try {
    const count = async () => Number((await counter.query('select count(*) as n from camera_logs')).rows[0].n);
    return await measure([`http://127.0.0.1:${port}`], token, count, {
      api: meterOf(api), workers: meterOf(...workers),
      // Shared by every engineer on this machine: an upper bound of what this run cost them.
      postgres: new CpuMeter(() => pidsByName('postgres')), redis: new CpuMeter(() => pidsByName('redis-server')),
    }, workerCount === 1 ? workers[0]!.pid : undefined);
  } finally {
    for (const p of [api, ...workers]) p.kill('SIGTERM');
    for (const p of [api, ...workers]) await exited(p);
    await counter.end();
    await dropJobQueue(`${PG}/${name}`, REDIS).catch(() => {});
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const rate = (r: Run) => r.analysed / r.seconds;
const perUpload = (s: number, r: Run) => `${((s / r.analysed) * 1000).toFixed(0).padStart(4)}`;
const cores = os.availableParallelism();
console.log(`\nSustained uploads with analysis keeping up (1280x720 JPEG, ${concurrency} clients for ${seconds} s, ${cores} cores, 1 analysis thread per process)`);
console.log('  CPU ms per upload: api = serving process, workers = all worker processes, pg/redis = every postgres/redis-server process on the machine');
const base = await embedded();
console.log(`  embedded (serve, SQLite)              ${rate(base).toFixed(1).padStart(6)} uploads/s  (accepted ${base.accepted}, analysed ${base.analysed} in ${base.seconds.toFixed(1)} s)  CPU ms/upload: serve ${perUpload(base.cpu.api, base)}, clients ${perUpload(base.client, base)}; load average ${base.load.toFixed(1)}`);
const runs: Array<[number, Run]> = [];
for (const n of [1, 2, 4]) {
  const r = await distributed(n);
  runs.push([n, r]);
  console.log(`  api + ${n} worker process${n > 1 ? 'es' : '  '} (PostgreSQL+BullMQ) ${rate(r).toFixed(1).padStart(6)} uploads/s  (${(rate(r) / rate(base)).toFixed(2)}x embedded; accepted ${r.accepted}, analysed ${r.analysed} in ${r.seconds.toFixed(1)} s)  CPU ms/upload: api ${perUpload(r.cpu.api, r)}, workers ${perUpload(r.cpu.workers, r)}, pg ${perUpload(r.cpu.postgres, r)}, redis ${perUpload(r.cpu.redis, r)}, clients ${perUpload(r.client, r)}; load average ${r.load.toFixed(1)}`);
}

// What one more 2-core worker machine adds: its cores divided by the worker CPU one upload costs
// (taken from the 1-worker run, the least contended). API, PostgreSQL and Redis costs per upload
// say how many worker machines one API machine and one database can feed.
const [, one] = runs[0]!;
const workerCpu = one.cpu.workers / one.analysed;
const perWorkerMachine = 2 / workerCpu;
console.log(`\nOne 2-core worker machine: ${perWorkerMachine.toFixed(1)} uploads/s = ${Math.floor(perWorkerMachine * 900)} cameras at one image per 15 minutes (${(workerCpu * 1000).toFixed(0)} CPU ms per upload in workers)`);
if (one.threads) {
  const ms = (s: number) => ((s / one.analysed) * 1000).toFixed(1);
  console.log(`  spread over threads in the 1-worker run: main ${ms(one.threads.main)} ms, busiest other ${ms(one.threads.busiest)} ms of ${ms(one.threads.total)} CPU ms per upload (decoding runs on libvips/libuv threads), so one worker process is not held to one core`);
}
console.log(`One 2-core API machine accepts ${(2 / (one.cpu.api / one.analysed)).toFixed(0)} uploads/s; PostgreSQL spends ${((one.cpu.postgres / one.analysed) * 1000).toFixed(1)} and Redis ${((one.cpu.redis / one.analysed) * 1000).toFixed(1)} CPU ms per upload (every such process on this machine: an upper bound)`);
