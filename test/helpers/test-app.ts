import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Env } from '../../src/config/config.js';
import { createContainer, type Container } from '../../src/container.js';
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
export async function buildTestApp(env: Partial<Record<keyof Env, string>> = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-test-'));
  const config = loadConfig({}, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://vigil.test', ...env });
  const container = await createContainer(config);
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
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
