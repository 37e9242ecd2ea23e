/** Where image bytes live. Keys are slash-separated paths chosen by the services. */
export interface BlobStore {
  put(key: string, bytes: Buffer): Promise<void>;
  /** undefined when the key does not exist. */
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
  /** Removes every blob whose key starts with `prefix/`. */
  deletePrefix(prefix: string): Promise<void>;
}

/** The store has no room (a full disk, a quota): callers should retry later, nothing was kept. */
export class StorageFullError extends Error {
  override name = 'StorageFullError';
}
