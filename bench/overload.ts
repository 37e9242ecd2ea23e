/**
 * npm run bench:overload [-- --seconds 15] [--upload-rate 5] [--flood-mb 7] [--flood-connections 40] [--upload-memory-mb N]
 *
 * `vigil serve` runs as its own process (the built binary, embedded SQLite); this process is only
 * the load generator (autocannon). One noisy token floods uploads (many cameras) and reads at
 * several times the configured rate limits while another account reads its logs: the noisy
 * caller gets 429s, the other account's reads stay fast, the server's memory stays bounded and
 * the queue (the jobs table) absorbs what was accepted and drains. Baseline: the same reads on
 * the idle server, in the same run.
 *
 * Then a recognition flood: `--flood-connections` connections post `--flood-mb` MB photos to the
 * OCR and plate readers (rate limits set high, so memory and the engines are what give): the
 * share answered 429 or 503 with Retry-After, the other account's reads meanwhile, and the
 * server's peak RSS, which UPLOAD_MEMORY_BYTES (admission before buffering) keeps bounded.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { openDatabase } from '../src/storage/db/database.js';
import { noiseImage, sceneJpeg } from '../test/fixtures/images.js';
import { multipartBody } from '../test/helpers/multipart.js';
import { exited, freePort, runVigil, startVigil } from '../test/helpers/processes.js';
import { flag } from './lib/stats.js';

const seconds = Number(flag('seconds', '15'));
const uploadRate = Number(flag('upload-rate', '5'));
const floodMb = Number(flag('flood-mb', '7'));
const floodConnections = Number(flag('flood-connections', '40'));
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-overload-'));
const env = {
  DATA_DIR: dataDir, LOG_LEVEL: 'warn', UPLOAD_RATE_PER_SECOND: String(uploadRate), CAMERA_UPLOAD_INTERVAL_SECONDS: '0', WORKER_THREADS: '1',
  RECOGNITION_RATE_PER_SECOND: '1000', PLATE_MAX_UPLOAD_BYTES: String(10 * 1024 * 1024),
  // --upload-memory-mb N: the admission budget (default: the server's, 128 MB); a large one shows the flood without it.
  ...(flag('upload-memory-mb') ? { UPLOAD_MEMORY_BYTES: String(Number(flag('upload-memory-mb')) * 1024 * 1024) } : {}),
};

const cli = async (args: string[]) => {
  const r = await runVigil([...args, '--json'], env);
  if (r.code !== 0) throw new Error(`vigil ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout);
};
const noisy = await cli(['accounts', 'create', '--email', 'noisy@example.com']);
await cli(['licenses', 'create', '--account', 'noisy@example.com', '--size', '1000']);
const reader = await cli(['accounts', 'create', '--email', 'reader@example.com']);
const readerLicense = await cli(['licenses', 'create', '--account', 'reader@example.com', '--size', '10']);

const port = await freePort();
const server = await startVigil([], env, port);
const url = `http://127.0.0.1:${port}`;
const pid = server.pid!;

const frame = await sceneJpeg(1280, 720, 5);
const seed = await multipartBody({ upload: { bytes: frame }, camera_id: 'R1' });
const seeded = await fetch(`${url}/v1/camera-monitoring/create-log/`, { method: 'POST', body: seed.payload, headers: { ...seed.headers, authorization: `Token ${reader.token}` } });
if (seeded.status !== 201) throw new Error(`seed upload: ${seeded.status}`);

// The bench reads the server's database and /proc on the side: RSS and queue depth over time.
const db = openDatabase(loadConfig({}, env).database);
const rssMb = async () => Number(/VmRSS:\s+(\d+) kB/.exec(await fs.readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const queueDepth = async () =>
  Number((await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['queued', 'running']).executeTakeFirstOrThrow()).n);
const samples: Array<{ t: number; rss: number; queue: number }> = [];
const t0 = Date.now();
const sampler = setInterval(() => void Promise.all([rssMb(), queueDepth()]).then(([rss, queue]) => samples.push({ t: (Date.now() - t0) / 1000, rss, queue }), () => undefined), 1000);

const reads = (duration: number) =>
  autocannon({ url: `${url}/v1/camera-monitoring/${readerLicense.id}/cameras/R1/logs/`, connections: 4, duration, headers: { authorization: `Token ${reader.token}` } });

const idle = await reads(Math.max(3, seconds / 3));
const rssIdle = await rssMb();

let n = 0;
const bodies = await Promise.all(Array.from({ length: 50 }, () => multipartBody({ upload: { bytes: frame }, camera_id: `N${n++}` })));
const floodStart = (Date.now() - t0) / 1000;
const uploads = autocannon({
  url: `${url}/v1/camera-monitoring/create-log/`, connections: 32, duration: seconds, method: 'POST',
  requests: bodies.map((b) => ({ method: 'POST', body: b.payload, headers: { ...b.headers, authorization: `Token ${noisy.token}` } })),
});
const noisyReads = autocannon({ url: `${url}/v1/camera-monitoring/licenses/`, connections: 16, duration: seconds, headers: { authorization: `Token ${noisy.token}` } });
const [busyReads, up, nr] = await Promise.all([reads(seconds), uploads, noisyReads]);
const floodEnd = (Date.now() - t0) / 1000;

const accepted = up['2xx'];
const drainStart = Date.now();
while ((await queueDepth()) > 0 && Date.now() - drainStart < 600_000) await new Promise((r) => setTimeout(r, 250));
const drained = (Date.now() - drainStart) / 1000;
clearInterval(sampler);
const countOf = async (table: 'camera_logs' | 'images') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const logs = await countOf('camera_logs');
// autocannon drops the answers still in flight when it stops: the server may have stored a few
// more uploads than the 201s counted here, each with its log.
const stored = await countOf('images');
const count429 = up.statusCodeStats?.['429']?.count ?? 0;

const during = samples.filter((s) => s.t >= floodStart && s.t <= floodEnd);
const peak = (xs: number[]) => Math.max(...xs);
console.log(`\nOverload (server: its own process, pid ${pid}; load: this process; ${os.cpus().length} cores shared)`);
console.log(`  ${seconds} s flood: 32 connections of uploads (limit ${uploadRate}/s per token) and 16 of reads on one token, while another account reads`);
console.log(`  uploads ${up.requests.total}: 201 ${accepted}, 429 ${count429} (${((100 * count429) / Math.max(1, up.requests.total)).toFixed(1)}%), other non-2xx ${up.non2xx - count429}, errors ${up.errors}, timeouts ${up.timeouts}`);
console.log(`  noisy reads ${nr.requests.total}: 2xx ${nr['2xx']}, non-2xx ${nr.non2xx}; p50 ${nr.latency.p50} ms p99 ${nr.latency.p99} ms`);
console.log(`  other account's reads  idle: p50 ${idle.latency.p50} ms  p99 ${idle.latency.p99} ms  (${idle.requests.average} req/s)`);
console.log(`  other account's reads flood: p50 ${busyReads.latency.p50} ms  p99 ${busyReads.latency.p99} ms  (${busyReads.requests.average} req/s; non-2xx ${busyReads.non2xx})`);
console.log(`  server RSS: ${rssIdle.toFixed(0)} MB idle, peak ${peak(during.map((s) => s.rss)).toFixed(0)} MB during the flood, ${(await rssMb()).toFixed(0)} MB after the drain`);
console.log(`  queue depth (jobs queued or running): peak ${peak(during.map((s) => s.queue))} during the flood; drained in ${drained.toFixed(1)} s`);
console.log(`  every stored upload analysed once: ${logs === stored ? 'yes' : 'NO'} (${stored - 1} stored of which ${accepted} 201s counted before autocannon stopped, ${logs - 1} logs; the seed upload not counted)`);
console.log('  timeline (s: RSS MB / queue depth): ' + samples.filter((_, i) => i % 2 === 0).map((s) => `${s.t.toFixed(0)}:${s.rss.toFixed(0)}/${s.queue}`).join(' '));

// The recognition flood: large photos (noise does not compress) to both readers at once.
const side = Math.round(Math.sqrt((floodMb * 1024 * 1024) / 1.9));
const noise = noiseImage(side, side, 3, 11);
const big = await sharp(noise.data, { raw: noise }).jpeg({ quality: 97 }).toBuffer();
const ocrBody = await multipartBody({ upload: { bytes: big, filename: 'big.jpg' }, type: 'vin' });
const plateBody = await multipartBody({ upload: { bytes: big, filename: 'big.jpg' } });
const floodOf = (route: string, body: { payload: Buffer; headers: Record<string, string> }) => autocannon({
  url: `${url}${route}`, connections: Math.ceil(floodConnections / 2), duration: seconds, method: 'POST',
  body: body.payload, headers: { ...body.headers, authorization: `Token ${noisy.token}` },
});
// One refused answer, to show what a client is told.
let refusal = '';
const probe = setInterval(() => void fetch(`${url}/v1/ocr/reader/`, { method: 'POST', body: ocrBody.payload, headers: { ...ocrBody.headers, authorization: `Token ${noisy.token}` } })
  .then(async (r) => { if (!refusal && r.status >= 429) refusal = `${r.status} Retry-After ${r.headers.get('retry-after') ?? 'none'}: ${await r.text()}`; }, () => undefined), 500);
const recStart = (Date.now() - t0) / 1000;
const sampler2 = setInterval(() => void rssMb().then((rss) => samples.push({ t: (Date.now() - t0) / 1000, rss, queue: 0 }), () => undefined), 250);
const [ocrFlood, plateFlood, readsDuring] = await Promise.all([floodOf('/v1/ocr/reader/', ocrBody), floodOf('/v1/plate-reader/', plateBody), reads(seconds)]);
clearInterval(probe);
clearInterval(sampler2);
const recSamples = samples.filter((x) => x.t >= recStart);
const share = (r: autocannon.Result) => {
  const refused = (r.statusCodeStats?.['429']?.count ?? 0) + (r.statusCodeStats?.['503']?.count ?? 0);
  return `${r.requests.total} answered: 2xx ${r['2xx']}, 429/503 ${refused} (${((100 * refused) / Math.max(1, r.requests.total)).toFixed(0)}%), other ${r.non2xx - refused}, errors ${r.errors}, timeouts ${r.timeouts}`;
};
console.log(`\nRecognition flood: ${floodConnections} connections of ${(big.length / 1024 / 1024).toFixed(1)} MB photos for ${seconds} s, half to OCR, half to plates`);
console.log(`  OCR    ${share(ocrFlood)}`);
console.log(`  plates ${share(plateFlood)}`);
console.log(`  a refusal: ${refusal.slice(0, 220) || 'none seen'}`);
console.log(`  other account's reads: p50 ${readsDuring.latency.p50} ms  p99 ${readsDuring.latency.p99} ms  (idle p99 ${idle.latency.p99} ms; non-2xx ${readsDuring.non2xx})`);
console.log(`  server RSS: peak ${peak(recSamples.map((x) => x.rss)).toFixed(0)} MB during the flood (UPLOAD_MEMORY_BYTES ${env.UPLOAD_MEMORY_BYTES ?? 'default, 128 MB'}; INFERENCE_MEMORY ${process.env.INFERENCE_MEMORY ?? 'arena'}${process.env.MALLOC_MMAP_THRESHOLD_ ? `, MALLOC_MMAP_THRESHOLD_ ${process.env.MALLOC_MMAP_THRESHOLD_}` : ''})`);

server.kill('SIGTERM');
await exited(server);
await db.destroy();
await fs.rm(dataDir, { recursive: true, force: true });
