import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { StorageFullError } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';

describe('FsBlobStore', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-blobs-'));
  const store = new FsBlobStore(root);

  it('stores, reads and deletes blobs, and whole prefixes', async () => {
    await store.put('a/1/x.jpg', Buffer.from('one'));
    await store.put('a/1/y.jpg', Buffer.from('two'));
    await store.put('a/2/z.jpg', Buffer.from('three'));
    expect((await store.get('a/1/x.jpg'))?.toString()).toBe('one');
    await store.delete('a/1/x.jpg');
    expect(await store.get('a/1/x.jpg')).toBeUndefined();
    await store.deletePrefix('a/1');
    expect(await store.get('a/1/y.jpg')).toBeUndefined();
    expect((await store.get('a/2/z.jpg'))?.toString()).toBe('three');
    expect((await fs.readdir(path.join(root, 'a'))).sort()).toEqual(['2']);
  });

  it('turns a full disk into StorageFullError and leaves no temporary file', async () => {
    const spy = vi.spyOn(fs, 'writeFile').mockRejectedValueOnce(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    try {
      await expect(store.put('full/x.jpg', Buffer.from('x'))).rejects.toBeInstanceOf(StorageFullError);
    } finally {
      spy.mockRestore();
    }
    expect(await fs.readdir(path.join(root, 'full'))).toEqual([]);
  });

  it.each(['../escape', 'a/../../b', '/abs', 'a//b', ''])('refuses the key %j', async (key) => {
    await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid blob key/);
  });
});
