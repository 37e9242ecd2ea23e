/**
 * npm run bench:plate-history [-- --reads 1000000 --db sqlite|postgres --queries 30]
 *
 * Searches of an account's plate read history at scale: `--reads` reads of one account (100,000
 * distinct plates, a few seen very often, 20 cameras, 30 days) are written straight into a fresh
 * database (SQLite under a temporary DATA_DIR, or a temporary PostgreSQL database on VIGIL_TEST_PG),
 * with their fuzzy-search keys, then each kind of search is timed through the service the API
 * calls (PlateHistoryService.list: a page of 100, JSON fields parsed): median and p95 ms over
 * `--queries` different searches each. Issue 29's goal: under 50 ms over 1,000,000 reads.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../src/config/config.js';
import { createContainer } from '../src/container.js';
import { plateKeys } from '../src/domain/plates/plate-keys.js';
import type { HistoryQuery } from '../src/services/recognition/plate-history.service.js';
import { flag, median, percentile } from './lib/stats.js';

const total = Number(flag('reads', '1000000'));
const dbKind = flag('db', 'sqlite');
const queries = Number(flag('queries', '30'));
const PG = process.env.VIGIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';

// A fixed pseudo-random stream, so every run writes the same history.
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const plateOf = (n: number) => {
  let s = '';
  let v = n * 2654435761 % 2 ** 32;
  for (let i = 0; i < 3; i++) { s += LETTERS[v % LETTERS.length]; v = Math.floor(v / LETTERS.length); }
  return (s + String(n % 10_000).padStart(4, '0')).toLowerCase();
};
/** Plate numbers 0..99,999, the low ones (regulars) far more often: a skewed draw. */
const drawPlate = () => Math.floor(100_000 * random() ** 3);

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-history-'));
const pgName = `vigil_bench_history_${process.pid}`;
if (dbKind === 'postgres') {
  const admin = new pg.Client({ connectionString: `${PG}/postgres` });
  await admin.connect();
  await admin.query(`create database ${pgName}`);
  await admin.end();
}
const config = loadConfig({}, {
  DATA_DIR: dataDir, LOG_LEVEL: 'silent', WORKER_THREADS: '1',
  ...(dbKind === 'postgres' ? { DATABASE_URL: `${PG}/${pgName}` } : {}),
});
const container = await createContainer(config);
const { db } = container;
try {
  const { account } = await container.accounts.create('history@example.com', ['plate-reader']);
  const started = Date.now();
  const end = Date.UTC(2026, 10, 27);
  const span = 30 * 86_400_000;
  const BATCH = 1000;
  for (let done = 0; done < total; done += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, total - done) }, (_, i) => {
      const plate = plateOf(drawPlate());
      return {
        account_id: account.id, camera_id: `cam-${Math.floor(random() * 20)}`, read_at: end - span + Math.floor(((done + i) / total) * span),
        plate, score: 0.9, dscore: 0.95, region: 'us-ca', candidates: JSON.stringify([{ plate, score: 0.9 }]),
        box: '{"xmin":10,"ymin":20,"xmax":90,"ymax":45}', vehicle: null, image_id: null, created_at: end,
      };
    });
    await db.transaction().execute(async (trx) => {
      const ids = await trx.insertInto('plate_reads').values(rows).returning('id').execute();
      const keys = rows.flatMap((r, i) => plateKeys(r.plate).map((key) => ({ read_id: ids[i]!.id, account_id: account.id, key, read_at: r.read_at, camera_id: r.camera_id })));
      for (let k = 0; k < keys.length; k += 2000) await trx.insertInto('plate_read_keys').values(keys.slice(k, k + 2000)).execute();
    });
  }
  await sql`analyze`.execute(db);
  console.log(`plate history bench: ${total.toLocaleString()} reads of one account in ${dbKind}, written in ${((Date.now() - started) / 1000).toFixed(0)} s; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const history = container.plateHistory;
  const day = 86_400_000;
  const kinds: Array<[string, (i: number) => HistoryQuery]> = [
    ['newest page', () => ({ limit: 100 })],
    ['exact plate, a regular', (i) => ({ plate: plateOf(i), limit: 100 })],
    ['exact plate, seen rarely', (i) => ({ plate: plateOf(20_000 + i), limit: 100 })],
    ['fuzzy plate (one off, look-alikes)', (i) => ({ plate: plateOf(50 + i).replace(/.$/, 'x'), fuzzy: true, limit: 100 })],
    ['fuzzy plate, a regular', (i) => ({ plate: plateOf(i), fuzzy: true, limit: 100 })],
    ['camera, one day', (i) => ({ cameraId: `cam-${i % 20}`, from: end - (i + 2) * day, until: end - (i + 1) * day, limit: 100 })],
    ['fuzzy plate at one camera', (i) => ({ plate: plateOf(i), fuzzy: true, cameraId: `cam-${i % 20}`, limit: 100 })],
    ['third page of a camera', (i) => ({ cameraId: `cam-${i % 20}`, limit: 100 })],
  ];
  for (const [name, query] of kinds) {
    const ms: number[] = [];
    let found = 0;
    for (let i = 0; i < queries; i++) {
      let q = query(i);
      const t0 = performance.now();
      let page = await history.list(account.id, q);
      if (name.startsWith('third page')) {
        for (let p = 0; p < 2 && page.next; p++) page = await history.list(account.id, (q = { ...q, after: page.next }));
      }
      ms.push(performance.now() - t0);
      found += page.reads.length;
    }
    console.log(`  ${name.padEnd(36)} median ${median(ms).toFixed(1).padStart(6)} ms  p95 ${percentile(ms, 95).toFixed(1).padStart(6)} ms  (${(found / queries).toFixed(0)} reads per page)`);
  }
} finally {
  await container.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  if (dbKind === 'postgres') {
    const admin = new pg.Client({ connectionString: `${PG}/postgres` });
    await admin.connect();
    await admin.query(`drop database if exists ${pgName} with (force)`);
    await admin.end();
  }
}
