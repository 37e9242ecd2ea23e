import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from './config/config.js';
import { FsBlobStore } from './storage/blobs/fs-blob-store.js';
import { migrateToLatest, openDatabase, pendingMigrations, type Db } from './storage/db/database.js';
import { AccountRepository } from './storage/repositories/account.repository.js';
import { ImageRepository } from './storage/repositories/image.repository.js';
import { LicenseRepository } from './storage/repositories/license.repository.js';
import { SettingsRepository } from './storage/repositories/settings.repository.js';
import { TokenRepository } from './storage/repositories/token.repository.js';
import { AccountService } from './services/accounts.service.js';
import { ImageService } from './services/images.service.js';
import { LicenseService } from './services/licenses.service.js';
import { TokenService } from './services/tokens.service.js';

/** Everything a process needs, wired once from the config. Each service gets only what it uses. */
export interface Container {
  config: Config;
  db: Db;
  accounts: AccountService;
  tokens: TokenService;
  licenses: LicenseService;
  images: ImageService;
  /** Named readiness checks for /readyz; each throws when its part is not ready. */
  readiness: Map<string, () => Promise<void>>;
  close(): Promise<void>;
}

export class UnmigratedSchemaError extends Error {
  override name = 'UnmigratedSchemaError';
}

export async function createContainer(config: Config): Promise<Container> {
  const db = openDatabase(config.database);
  try {
    if (config.runMigrations) await migrateToLatest(db);
    const pending = await pendingMigrations(db);
    if (pending.length > 0) {
      throw new UnmigratedSchemaError(`The database schema is not migrated (pending: ${pending.join(', ')}). Run \`vigil migrate\` first.`);
    }
  } catch (err) {
    await db.destroy();
    throw err;
  }

  const accountRepo = new AccountRepository(db);
  const settings = new SettingsRepository(db);
  const tokens = new TokenService(new TokenRepository(db), accountRepo);
  const secret = config.images.urlSecret ?? (await settings.getOrCreate('image_url_secret', () => randomBytes(32).toString('base64url')));
  const blobs = new FsBlobStore(path.join(config.dataDir, 'blobs'));

  const readiness = new Map<string, () => Promise<void>>([['database', async () => void (await sql`select 1`.execute(db))]]);
  const closers: Array<() => Promise<void>> = [];

  return {
    config,
    db,
    tokens,
    accounts: new AccountService(accountRepo, tokens),
    licenses: new LicenseService(new LicenseRepository(db)),
    images: new ImageService(new ImageRepository(db), blobs, {
      publicUrl: config.publicUrl, secret, ttlSeconds: config.images.urlTtlSeconds, maxPixels: config.images.maxPixels,
    }),
    readiness,
    async close() {
      for (const close of closers.reverse()) await close();
      await db.destroy();
    },
  };
}
