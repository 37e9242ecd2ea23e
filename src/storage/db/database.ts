import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config/config.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

// PostgreSQL returns bigint as a string; our bigints are ids and epoch milliseconds, which fit
// a double exactly.
pg.types.setTypeParser(20, (v) => Number(v));

/** Longest a PostgreSQL query may wait for its answer in normal operation. */
export const QUERY_TIMEOUT_MS = 30_000;

/** `queryTimeoutMs: null` for work that may legitimately run long (`vigil migrate` building an
 * index on a large table). */
export function openDatabase(database: Config['database'], options: { queryTimeoutMs?: number | null } = {}): Db {
  if (database.kind === 'postgres') {
    // A database behind a network partition neither refuses nor answers: without a connect
    // timeout every request would wait on it for minutes. Past 5 s the query fails and the
    // request is answered 503. A partition in the middle of a query is cut by the query timeout
    // (the service's queries take milliseconds).
    const queryTimeout = options.queryTimeoutMs === undefined ? QUERY_TIMEOUT_MS : options.queryTimeoutMs ?? undefined;
    const pool = new pg.Pool({ connectionString: database.url, max: 10, connectionTimeoutMillis: 5_000, query_timeout: queryTimeout });
    // An idle connection dropped by the server (restart, failover) must not crash the
    // process: the pool replaces it on the next query.
    pool.on('error', (err) => console.error(`[vigil] database connection lost: ${err.message}`));
    // pg-pool listens for errors only on idle clients: a connection that drops while checked out
    // emits 'error' with no listener, which would crash the process. The query in flight fails on
    // its own (and is answered 503), so the event needs nothing more than a listener.
    pool.on('connect', (client) => client.on('error', () => undefined));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  if (database.file !== ':memory:') fs.mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  // WAL lets the CLI write while the server reads; busy_timeout makes concurrent writers wait
  // instead of failing.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

function migrator(db: Db) {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of migrations not yet applied: a process refuses to start while this is non-empty. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const all = await migrator(db).getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}
