/**
 * npm run bench:overload [-- --seconds 10]
 *
 * Several times the configured rate limits against the upload endpoint (one noisy token and
 * many cameras) while another account reads its logs: the noisy caller gets 429s, reads stay
 * fast, memory stays bounded and every accepted upload is analysed. Baseline: the same reads
 * on an idle server, in the same run.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config/config.js';
import { createContainer } from '../src/container.js';
import { buildApp } from '../src/http/app.js';
import { sceneJpeg } from '../test/fixtures/images.js';
import { multipartBody } from '../test/helpers/multipart.js';
import { flag } from './lib/stats.js';

const seconds = Number(flag('seconds', '10'));
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-overload-'));
const config = loadConfig({}, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', UPLOAD_RATE_PER_SECOND: '5', CAMERA_UPLOAD_INTERVAL_SECONDS: '900' });
const container = await createContainer(config);
container.startWorkers();
const app = await buildApp(container, { logger: false });
const url = await app.listen({ port: 0, host: '127.0.0.1' });

const noisy = await container.accounts.create('noisy@example.com');
await container.licenses.create({ accountId: noisy.account.id, size: 1_000_000, expiration: new Date(Date.now() + 86_400_000) });
const reader = await container.accounts.create('reader@example.com');
const lic = await container.licenses.create({ accountId: reader.account.id, size: 10, expiration: new Date(Date.now() + 86_400_000) });
const frame = await sceneJpeg(1280, 720, 5);
const seedForm = await multipartBody({ upload: { bytes: frame }, camera_id: 'R1' });
await app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload: seedForm.payload, headers: { ...seedForm.headers, authorization: `Token ${reader.token}` } });

const reads = (duration: number) =>
  autocannon({ url: `${url}/v1/camera-monitoring/${lic.id}/cameras/R1/logs/`, connections: 4, duration, headers: { authorization: `Token ${reader.token}` } });

const idle = await reads(Math.max(3, seconds / 2));
const rssBefore = process.memoryUsage().rss;

let n = 0;
const bodies = await Promise.all(Array.from({ length: 50 }, () => multipartBody({ upload: { bytes: frame }, camera_id: `N${n++}` })));
const flood = autocannon({
  url: `${url}/v1/camera-monitoring/create-log/`, connections: 32, duration: seconds, method: 'POST',
  requests: bodies.map((b) => ({ method: 'POST', body: b.payload, headers: { ...b.headers, authorization: `Token ${noisy.token}` } })),
});
const [busyReads, uploads] = await Promise.all([reads(seconds), flood]);
const rssPeak = process.memoryUsage().rss;
const accepted = uploads['2xx'];
const drainStart = Date.now();
await container.runner.drain(300_000);
const drained = (Date.now() - drainStart) / 1000;
const logs = Number((await container.db.selectFrom('camera_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

console.log(`\nOverload: ${seconds} s, 32 connections flooding uploads (limit ${config.limits.uploadRatePerSecond}/s per token) while another account reads`);
console.log(`  upload requests ${uploads.requests.total}: 2xx ${accepted}, 429 ${uploads.non2xx} (${((100 * uploads.non2xx) / Math.max(1, uploads.requests.total)).toFixed(1)}% throttled), errors ${uploads.errors}`);
console.log(`  reads idle  p50 ${idle.latency.p50} ms  p99 ${idle.latency.p99} ms  (${idle.requests.average} req/s)`);
console.log(`  reads busy  p50 ${busyReads.latency.p50} ms  p99 ${busyReads.latency.p99} ms  (${busyReads.requests.average} req/s; non-2xx ${busyReads.non2xx})`);
console.log(`  RSS ${Math.round(rssBefore / 2 ** 20)} MB before the flood, ${Math.round(rssPeak / 2 ** 20)} MB after (server and load generator share this process)`);
console.log(`  every accepted upload analysed: ${logs - 1 === accepted ? 'yes' : `NO (${logs - 1} logs for ${accepted} uploads)`}; backlog drained in ${drained.toFixed(1)} s`);
await app.close();
await container.close();
await fs.rm(dataDir, { recursive: true, force: true });
