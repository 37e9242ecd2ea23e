import { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config/config.js';
import type { BlobStore } from '../storage/blobs/blob-store.js';
import { FsBlobStore } from '../storage/blobs/fs-blob-store.js';
import { parseS3Url, S3BlobStore } from '../storage/blobs/s3-blob-store.js';
import { migrateToLatest, openDatabase, pendingMigrations, type Db } from '../storage/db/database.js';

export class UnmigratedSchemaError extends Error {
  override name = 'UnmigratedSchemaError';
}

/** The configured database, migrated (unless RUN_MIGRATIONS is off, when a pending migration
 * stops the process with the command that applies it). */
export async function openMigratedDatabase(config: Config): Promise<Db> {
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
  return db;
}

export function openBlobStore(blobs: Config['blobs']): BlobStore {
  if (blobs.kind === 'fs') return new FsBlobStore(blobs.root);
  // Credentials come from the standard AWS variables or profile; a custom endpoint (MinIO and
  // other S3-compatible stores) is addressed path-style.
  const client = new S3Client({ region: blobs.region, ...(blobs.endpoint ? { endpoint: blobs.endpoint, forcePathStyle: true } : {}) });
  return new S3BlobStore(client, parseS3Url(blobs.url));
}
