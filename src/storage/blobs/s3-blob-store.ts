import { BucketAlreadyExists, BucketAlreadyOwnedByYou, CreateBucketCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchBucket, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { NETWORK_ERROR_CODES } from '../network-errors.js';
import { StorageUnavailableError, type BlobStore } from './blob-store.js';

export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing slash ('' for none). */
  prefix: string;
}

/** `s3://bucket/some/prefix` → bucket and prefix. */
export function parseS3Url(url: string): S3Location {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/.*)?$/.exec(url);
  if (!m) throw new Error(`Invalid S3 URL: ${url} (expected s3://bucket/prefix)`);
  return { bucket: m[1]!, prefix: (m[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

/** Blobs in an S3-compatible object store, shared by every process of a distributed setup. */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly location: S3Location,
  ) {}

  private key(key: string): string {
    return this.location.prefix ? `${this.location.prefix}/${key}` : key;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const put = () => this.reach(() => this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key: this.key(key), Body: bytes })));
    try {
      await put();
    } catch (err) {
      if (!(err instanceof NoSuchBucket)) throw err;
      // A fresh store (a new MinIO volume): the first write makes the bucket.
      await this.createBucket();
      await put();
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await this.reach(async () => {
        const res = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(key) }));
        return Buffer.from(await res.Body!.transformToByteArray());
      });
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey' || err instanceof NoSuchBucket) return undefined;
      throw err;
    }
  }

  private async createBucket(): Promise<void> {
    try {
      await this.reach(() => this.client.send(new CreateBucketCommand({ Bucket: this.location.bucket })));
    } catch (err) {
      // Another process made it first.
      if (!(err instanceof BucketAlreadyOwnedByYou || err instanceof BucketAlreadyExists)) throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.reach(() => this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.key(key) })));
  }

  async deletePrefix(prefix: string): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.reach(() => this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: `${this.key(prefix)}/`, ContinuationToken: token })));
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length) await this.reach(() => this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: keys } })));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Runs one call to the store; a store that cannot be reached becomes StorageUnavailableError
   * (other errors, such as a missing key or denied access, pass through unchanged). */
  private async reach<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (isUnreachable(err)) throw new StorageUnavailableError(`The object store cannot be reached: ${(err as Error).message}`, { cause: err });
      throw err;
    }
  }
}

function isUnreachable(err: unknown): boolean {
  const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number }; errors?: unknown[] };
  // An object store's host name that does not resolve is an outage too.
  if (e?.code && (NETWORK_ERROR_CODES.has(e.code) || e.code === 'ENOTFOUND')) return true;
  if (e?.name === 'TimeoutError' || e?.name === 'RequestTimeout') return true;
  // Node's fetch-style AggregateError (IPv4 and IPv6 both refused).
  if (Array.isArray(e?.errors) && e.errors.some(isUnreachable)) return true;
  const status = e?.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}
