/**
 * npm run bench:camera-api [-- --seconds 20 --concurrency 8 --cameras 10000 --logs 1000000]
 *
 * 1. Uploads per second through real HTTP (multipart, distinct cameras) with analysis on the
 *    worker threads keeping up: accepted/s, analysed/s and the backlog left at the end.
 * 2. Latency of the list endpoints with 10,000 cameras and 1,000,000 logs in SQLite, next to
 *    GET /healthz measured in the same run as the framework's floor.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../src/config/config.js';
import { createContainer } from '../src/container.js';
import { buildApp } from '../src/http/app.js';
import { sceneJpeg } from '../test/fixtures/images.js';
import { flag, fmt, median, percentile } from './lib/stats.js';
import { driveUploads } from './lib/uploads.js';

const seconds = Number(flag('seconds', '20'));
const concurrency = Number(flag('concurrency', '8'));
const cameraCount = Number(flag('cameras', '10000'));
const logCount = Number(flag('logs', '1000000'));

async function startServer(dataDir: string, intervalSeconds = '900') {
  const config = loadConfig({}, {
    DATA_DIR: dataDir, LOG_LEVEL: 'silent', CAMERA_UPLOAD_INTERVAL_SECONDS: intervalSeconds, UPLOAD_RATE_PER_SECOND: '100000',
    ALERT_GROUP_WINDOW_SECONDS: '60',
  });
  const container = await createContainer(config);
  container.startWorkers();
  const app = await buildApp(container, { logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { container, app, url };
}

async function uploadThroughput() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-bench-'));
  // Interval 0: a fleet of cameras cycles, so after its first upload (the reference) every
  // upload of a camera is a real comparison, as in production 15 minutes later.
  const { container, app, url } = await startServer(dataDir, '0');
  const { account, token } = await container.accounts.create('bench@example.com');
  await container.licenses.create({ accountId: account.id, size: 1_000_000, expiration: new Date(Date.now() + 86_400_000) });
  // A 1280x720 camera frame, as cameras send them (a slightly different one after the first).
  const frame = await sceneJpeg(1280, 720, 11);
  const doneAtStart = await countLogs(container);
  const { accepted, rejected: failed, elapsed } = await driveUploads({ urls: [url], token, frame, seconds, concurrency });
  const analysedDuring = (await countLogs(container)) - doneAtStart;
  const drainStart = Date.now();
  await container.runner.drain(600_000);
  const drainSeconds = (Date.now() - drainStart) / 1000;
  const analysedTotal = (await countLogs(container)) - doneAtStart;
  await app.close();
  await container.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  return { accepted, failed, elapsed, analysedDuring, analysedTotal, drainSeconds };
}

async function countLogs(container: Awaited<ReturnType<typeof createContainer>>) {
  const row = await container.db.selectFrom('camera_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Seeds cameras and logs straight into SQLite: the API would take hours at 1 upload/s. */
function seed(file: string, accountId: number, licenseIds: number[]) {
  const db = new SQLite(file);
  const now = Date.now();
  const perCamera = Math.max(1, Math.floor(logCount / cameraCount));
  const statuses = ['normal', 'normal', 'normal', 'normal', 'anomaly', 'under_review', 'offline'];
  const insCam = db.prepare(`insert into cameras (account_id, license_id, serial, name, notes, latest_status, created_at, modified_at, last_upload_at)
    values (?, ?, ?, ?, '', ?, ?, ?, ?)`);
  const insLog = db.prepare(`insert into camera_logs (camera_id, status, anomalies, scores, image_id, detail, created_at) values (?, ?, ?, null, null, null, ?)`);
  db.transaction(() => {
    for (let c = 0; c < cameraCount; c++) {
      const licenseId = licenseIds[c % licenseIds.length]!;
      const status = statuses[c % statuses.length]!;
      const id = Number(insCam.run(accountId, licenseId, `S${c}`, `Camera ${c}`, status, now, now, now).lastInsertRowid);
      for (let i = 0; i < perCamera; i++) {
        const s = statuses[(c + i) % statuses.length]!;
        insLog.run(id, s, s === 'anomaly' ? '{"Blur":0.8}' : '{}', now - i * 900_000);
      }
    }
  })();
  db.close();
  return perCamera * cameraCount;
}

async function listLatency() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-bench-'));
  let server = await startServer(dataDir);
  const { account, token } = await server.container.accounts.create('lists@example.com');
  const licenses: Array<{ id: number }> = [];
  for (let i = 0; i < 10; i++) licenses.push(await server.container.licenses.create({ accountId: account.id, size: cameraCount, expiration: new Date(Date.now() + 86_400_000) }));
  await server.app.close();
  await server.container.close();
  const t0 = Date.now();
  const logs = seed(path.join(dataDir, 'vigil.db'), account.id, licenses.map((l) => l.id));
  const seedSeconds = (Date.now() - t0) / 1000;
  server = await startServer(dataDir);
  const headers = { authorization: `Token ${token}` };
  const time = async (make: (i: number) => string, n = 200) => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const res = await fetch(`${server.url}${make(i)}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${make(i)} answered ${res.status}`);
      ms.push(performance.now() - t);
    }
    return { p50: median(ms), p95: percentile(ms, 95) };
  };
  const rnd = (i: number) => (i * 7919) % cameraCount;
  const lic = (c: number) => licenses[c % licenses.length]!.id;
  const results = {
    'GET /healthz (floor)': await time(() => '/healthz'),
    'GET /licenses/': await time(() => '/v1/camera-monitoring/licenses/'),
    [`GET /{license}/cameras/ (${cameraCount / licenses.length} cameras)`]: await time((i) => `/v1/camera-monitoring/${licenses[i % 10]!.id}/cameras/`, 50),
    'GET /{license}/cameras/?status=anomaly': await time((i) => `/v1/camera-monitoring/${licenses[i % 10]!.id}/cameras/?status=anomaly`, 50),
    'GET /{license}/cameras/{serial}/logs/': await time((i) => `/v1/camera-monitoring/${lic(rnd(i))}/cameras/S${rnd(i)}/logs/`),
    'GET .../logs/?status=anomaly&start=&end=': await time((i) => {
      const d = new Date().toISOString().slice(0, 10);
      return `/v1/camera-monitoring/${lic(rnd(i))}/cameras/S${rnd(i)}/logs/?status=anomaly&start=2020-01-01&end=${d}`;
    }),
    'GET /{license}/alerts/': await time((i) => `/v1/camera-monitoring/${licenses[i % 10]!.id}/alerts/`),
  };
  await server.app.close();
  await server.container.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  return { logs, seedSeconds, results };
}

const up = await uploadThroughput();
console.log(`\nUploads through HTTP: ${seconds} s, ${concurrency} concurrent clients, 1280x720 JPEG, ${os.availableParallelism()} cores`);
console.log(`  accepted        ${up.accepted} (${(up.accepted / up.elapsed).toFixed(1)}/s), rejected ${up.failed}`);
console.log(`  analysed during ${up.analysedDuring} (${(up.analysedDuring / up.elapsed).toFixed(1)}/s)`);
console.log(`  backlog drained in ${up.drainSeconds.toFixed(1)} s; analysed in total ${up.analysedTotal}`);
console.log(`  sustained (analysis keeping up): ${(up.analysedTotal / (up.elapsed + up.drainSeconds)).toFixed(1)} uploads/s`);
console.log(`  = ${Math.floor((up.analysedTotal / (up.elapsed + up.drainSeconds)) * 900)} cameras at one image per 15 minutes`);

const lists = await listLatency();
console.log(`\nList endpoints with ${cameraCount} cameras and ${lists.logs} logs (seeded in ${lists.seedSeconds.toFixed(1)} s), SQLite`);
const floor = lists.results['GET /healthz (floor)']!.p50;
for (const [name, r] of Object.entries(lists.results)) {
  console.log(`  ${name.padEnd(48)} p50 ${fmt(r.p50).padStart(9)}  p95 ${fmt(r.p95).padStart(9)}  (${(r.p50 / floor).toFixed(1)}x floor)`);
}
