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

/** The store cannot be reached right now (connection refused or lost, a 5xx from the object
 * store): the same request may succeed in a moment. Kept apart from database errors, whose
 * network codes look the same, so the answer names the part that is down. */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
}
