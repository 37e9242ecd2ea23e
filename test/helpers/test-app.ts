import fs from 'node:fs/promises';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Env } from '../../src/config/config.js';
import { createContainer, type Container, type ContainerOverrides } from '../../src/container.js';
import type { Feature } from '../../src/domain/features.js';
import { buildApp } from '../../src/http/app.js';

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  dataDir: string;
  /** Creates an account and returns its id and token. */
  account(features?: Feature[]): Promise<{ id: number; email: string; token: string; auth: { authorization: string } }>;
  close(): Promise<void>;
}

let counter = 0;

/** A full app on a fresh SQLite database in a temporary DATA_DIR. */
export async function buildTestApp(
  env: Partial<Record<keyof Env, string>> = {},
  options: ContainerOverrides & { workers?: boolean; dataDir?: string } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-test-')));
  const database = env.DATABASE_URL ? undefined : await testDatabase(dataDir);
  const config = loadConfig({}, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://vigil.test', WORKER_THREADS: '1', DATABASE_URL: database?.url, ...env });
  const container = await createContainer(config, options);
  if (options.workers !== false) container.startWorkers();
  const app = await buildApp(container, { logger: false });
  await app.ready();
  return {
    app,
    container,
    dataDir,
    async account(features) {
      const email = `user${++counter}-${process.pid}@example.com`;
      const { account, token } = await container.accounts.create(email, features);
      return { id: account.id, email, token, auth: { authorization: `Token ${token}` } };
    },
    async close() {
      await app.close();
      await container.close();
      if (!options.dataDir) {
        await fs.rm(dataDir, { recursive: true, force: true });
        await database?.drop();
      }
    },
  };
}

/** With VIGIL_TEST_DB=postgres the same suites run on a fresh PostgreSQL database per app
 * (PostgreSQL at VIGIL_TEST_PG, default postgres://postgres@127.0.0.1:5432). The database of a
 * given DATA_DIR is reused, so a restart test finds its data again. */
async function testDatabase(dataDir: string): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (process.env.VIGIL_TEST_DB !== 'postgres') return undefined;
  const server = process.env.VIGIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
  const name = `vigil_t_${path.basename(dataDir).replace(/[^a-z0-9]/gi, '').toLowerCase()}`;
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: `${server}/${name}`,
    async drop() {
      const c = new pg.Client({ connectionString: `${server}/postgres` });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
