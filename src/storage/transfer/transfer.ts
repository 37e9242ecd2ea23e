import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { sql, type Kysely } from 'kysely';
import type { BlobStore } from '../blobs/blob-store.js';
import type { Db } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { TABLES } from './tables.js';

const PAGE = 5000;
const FORMAT = 'vigil-export/1';

export interface TransferCounts {
  tables: Record<string, number>;
  blobs: number;
}

/** Writes every row (one NDJSON file per table) and every stored image into `dir`. */
export async function exportInstallation(db: Db, blobs: BlobStore, dir: string): Promise<TransferCounts> {
  await fs.mkdir(path.join(dir, 'tables'), { recursive: true });
  const counts: TransferCounts = { tables: {}, blobs: 0 };
  const any = db as unknown as Kysely<any>;
  for (const { name, key } of TABLES) {
    const out = createWriteStream(path.join(dir, 'tables', `${name}.ndjson`));
    let n = 0;
    if (key) {
      // Keyset paging keeps memory flat with millions of logs.
      let after = -Infinity;
      for (;;) {
        const rows = await any.selectFrom(name).selectAll().where(key, '>', after === -Infinity ? -1 : after).orderBy(key).limit(PAGE).execute();
        for (const r of rows) out.write(`${JSON.stringify(r)}\n`);
        n += rows.length;
        if (rows.length < PAGE) break;
        after = Number(rows[rows.length - 1]![key]);
      }
    } else {
      for (const r of await any.selectFrom(name).selectAll().execute()) {
        out.write(`${JSON.stringify(r)}\n`);
        n++;
      }
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    counts.tables[name] = n;
  }
  let after = -1;
  for (;;) {
    const rows = await db.selectFrom('images').select(['id', 'blob_key']).where('id', '>', after).orderBy('id').limit(PAGE).execute();
    for (const r of rows) {
      const bytes = await blobs.get(r.blob_key);
      if (!bytes) continue;
      const file = path.join(dir, 'blobs', r.blob_key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, bytes);
      counts.blobs++;
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.id;
  }
  await fs.writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ format: FORMAT, exported_at: new Date().toISOString(), counts }, null, 2));
  return counts;
}

/** Loads an export into an empty, migrated database and blob store, keeping every id. */
export async function importInstallation(db: Db, blobs: BlobStore, dir: string): Promise<TransferCounts> {
  const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as { format: string; counts: TransferCounts };
  if (manifest.format !== FORMAT) throw new Error(`Not a Vigil export (format ${manifest.format}).`);
  const existing = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) throw new Error('The target database already has accounts: import only into an empty installation.');
  const counts: TransferCounts = { tables: {}, blobs: 0 };
  const pg = dialectOf(db) === 'postgres';
  await db.transaction().execute(async (trx) => {
    const any = trx as unknown as Kysely<any>;
    // Migrations seed the image URL secret; the export's own replaces it so old links keep working.
    await any.deleteFrom('settings').execute();
    for (const { name, key } of TABLES) {
      let batch: Array<Record<string, unknown>> = [];
      let n = 0;
      const flush = async () => {
        if (batch.length) await any.insertInto(name).values(batch).execute();
        n += batch.length;
        batch = [];
      };
      const lines = readline.createInterface({ input: createReadStream(path.join(dir, 'tables', `${name}.ndjson`)), crlfDelay: Infinity });
      for await (const line of lines) {
        if (!line) continue;
        batch.push(JSON.parse(line) as Record<string, unknown>);
        // Stay under the bound-parameter limits of both databases.
        if (batch.length >= 200) await flush();
      }
      await flush();
      counts.tables[name] = n;
      if (pg && key === 'id' && n > 0) {
        await sql`select setval(pg_get_serial_sequence(${name}, 'id'), (select max(id) from ${sql.table(name)}))`.execute(trx);
      }
    }
    // An export from before migration 010 has search keys without their read's camera.
    await sql`update plate_read_keys set camera_id = (select camera_id from plate_reads where plate_reads.id = plate_read_keys.read_id) where camera_id is null`.execute(trx);
  });
  const images = await db.selectFrom('images').select('blob_key').execute();
  for (const { blob_key } of images) {
    const bytes = await fs.readFile(path.join(dir, 'blobs', blob_key)).catch(() => undefined);
    if (!bytes) continue;
    await blobs.put(blob_key, bytes);
    counts.blobs++;
  }
  for (const [table, n] of Object.entries(manifest.counts.tables)) {
    if (counts.tables[table] !== n) throw new Error(`Import of ${table} loaded ${counts.tables[table]} rows, the export has ${n}.`);
  }
  return counts;
}
