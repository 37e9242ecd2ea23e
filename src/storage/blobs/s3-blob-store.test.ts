import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseS3Url, S3BlobStore } from './s3-blob-store.js';

/** Against a real S3-compatible server (s3rver) on 127.0.0.1. */
describe('S3BlobStore', () => {
  let server: S3rver;
  let dir: string;
  let store: S3BlobStore;
  let endpoint = '';
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-s3-'));
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'vigil-test', configs: [] }] });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    store = new S3BlobStore(client, parseS3Url('s3://vigil-test/installs/one'));
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('stores, reads, deletes blobs and whole prefixes', async () => {
    await store.put('accounts/1/cameras/2/a.jpg', Buffer.from('one'));
    await store.put('accounts/1/cameras/2/b.jpg', Buffer.from('two'));
    await store.put('accounts/1/cameras/3/c.jpg', Buffer.from('three'));
    expect((await store.get('accounts/1/cameras/2/a.jpg'))?.toString()).toBe('one');
    expect(await store.get('accounts/1/cameras/9/none.jpg')).toBeUndefined();
    await store.delete('accounts/1/cameras/2/a.jpg');
    expect(await store.get('accounts/1/cameras/2/a.jpg')).toBeUndefined();
    await store.deletePrefix('accounts/1/cameras/2');
    expect(await store.get('accounts/1/cameras/2/b.jpg')).toBeUndefined();
    expect((await store.get('accounts/1/cameras/3/c.jpg'))?.toString()).toBe('three');
  });

  it('makes its bucket at the first write when the store has none (a fresh MinIO volume)', async () => {
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const fresh = new S3BlobStore(client, parseS3Url('s3://vigil-fresh/blobs'));
    expect(await fresh.get('a.jpg')).toBeUndefined();
    await Promise.all([fresh.put('a.jpg', Buffer.from('one')), fresh.put('b.jpg', Buffer.from('two'))]);
    expect((await fresh.get('a.jpg'))?.toString()).toBe('one');
    expect((await fresh.get('b.jpg'))?.toString()).toBe('two');
  });

  it('serves uploads end to end when BLOB_URL points at the bucket', async () => {
    const { buildTestApp } = await import('../../../test/helpers/test-app.js');
    const { sceneJpeg } = await import('../../../test/fixtures/images.js');
    const { multipartBody } = await import('../../../test/helpers/multipart.js');
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
    const t = await buildTestApp({ BLOB_URL: 's3://vigil-test/app', S3_ENDPOINT: endpoint });
    try {
      const a = await t.account();
      const lic = await t.container.licenses.create({ accountId: a.id, size: 1, expiration: new Date(Date.now() + 86_400_000) });
      const scene = await sceneJpeg(160, 120, 3);
      const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: 'S3CAM' });
      expect((await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } })).statusCode).toBe(201);
      await t.container.runner.drain();
      const [log] = (await t.app.inject({ url: `/v1/camera-monitoring/${lic.id}/cameras/S3CAM/logs/`, headers: a.auth })).json();
      const image = await t.app.inject({ url: log.snapshot.replace('http://vigil.test', '') });
      expect(image.rawPayload.equals(scene)).toBe(true);
      expect(await fs.readdir(path.join(dir, 'vigil-test'))).toContain('app');
    } finally {
      await t.close();
    }
  });

  it('answers 503 storage_unavailable (not database_unavailable) while the object store is down, and keeps nothing', async () => {
    const { buildTestApp } = await import('../../../test/helpers/test-app.js');
    const { sceneJpeg } = await import('../../../test/fixtures/images.js');
    const { multipartBody } = await import('../../../test/helpers/multipart.js');
    const { freePort } = await import('../../../test/helpers/processes.js');
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
    // Nothing listens on this port: every call to the store is refused.
    const t = await buildTestApp({ BLOB_URL: 's3://vigil-test/down', S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` });
    try {
      const a = await t.account();
      const lic = await t.container.licenses.create({ accountId: a.id, size: 1, expiration: new Date(Date.now() + 86_400_000) });
      const { payload, headers } = await multipartBody({ upload: { bytes: await sceneJpeg(160, 120, 4) }, camera_id: 'DOWN' });
      const res = await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ code: 'storage_unavailable' });
      expect(res.headers['retry-after']).toBeDefined();
      const logs = await t.app.inject({ url: `/v1/camera-monitoring/${lic.id}/cameras/DOWN/logs/`, headers: a.auth });
      expect(logs.statusCode === 404 || logs.json().length === 0, logs.body).toBe(true);
    } finally {
      await t.close();
    }
  });

  it.each(['s3://b', 'http://bucket/x', 's3://UPPER/x'])('refuses the URL %s', (url) => {
    expect(() => parseS3Url(url)).toThrow(/Invalid S3 URL/);
  });
  it('parses bucket and prefix', () => {
    expect(parseS3Url('s3://my-bucket/a/b/')).toEqual({ bucket: 'my-bucket', prefix: 'a/b' });
    expect(parseS3Url('s3://my-bucket')).toEqual({ bucket: 'my-bucket', prefix: '' });
  });
});
