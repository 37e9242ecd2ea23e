import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../../test/fixtures/images.js';
import { multipartBody } from '../../test/helpers/multipart.js';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app.js';

/** Removing licenses and accounts (`vigil licenses delete`, `vigil accounts delete`): what goes
 * and what stays, stored image bytes included. Runs on SQLite, and on PostgreSQL under test:postgres. */
describe('removing licenses and accounts', () => {
  let t: TestApp;
  let scene: Buffer;
  beforeAll(async () => {
    t = await buildTestApp({ UPLOAD_RATE_PER_SECOND: '1000', CAMERA_UPLOAD_INTERVAL_SECONDS: '0' });
    scene = await sceneJpeg(160, 120, 3);
  });
  afterAll(async () => t.close());

  async function customerWithCameras(licenses: number) {
    const a = await t.account();
    const ids: number[] = [];
    for (let i = 0; i < licenses; i++) {
      // One camera per license: a new camera goes to a license with room, and each has room for one.
      const license = await t.container.licenses.create({ accountId: a.id, size: 1, expiration: new Date(Date.now() + 86_400_000) });
      ids.push(license.id);
      const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: `CAM-${license.id}` });
      const res = await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } });
      expect(res.statusCode).toBe(201);
    }
    // The uploads' logs are written by their analysis jobs.
    for (let i = 0; i < 300 && (await logsOf(a.id)) < licenses; i++) await new Promise((r) => setTimeout(r, 20));
    return { ...a, licenses: ids };
  }
  const logsOf = async (accountId: number) => Number((await t.container.db.selectFrom('camera_logs')
    .innerJoin('cameras', 'cameras.id', 'camera_logs.camera_id').innerJoin('licenses', 'licenses.id', 'cameras.license_id')
    .select((eb) => eb.fn.countAll<number>().as('n')).where('licenses.account_id', '=', accountId).executeTakeFirstOrThrow()).n);
  const blobKeys = async (accountId: number) =>
    (await t.container.db.selectFrom('images').select('blob_key').where('account_id', '=', accountId).execute()).map((r) => r.blob_key);
  const camerasOf = async (licenseId: number) =>
    Number((await t.container.db.selectFrom('cameras').select((eb) => eb.fn.countAll<number>().as('n')).where('license_id', '=', licenseId).executeTakeFirstOrThrow()).n);

  it('a license goes with its cameras, logs and image files; the account\'s other license and other accounts stay', async () => {
    const a = await customerWithCameras(2);
    const other = await customerWithCameras(1);
    const before = await blobKeys(a.id);
    expect(before.length).toBe(2);
    expect(await camerasOf(a.licenses[0]!)).toBe(1);

    expect(await t.container.licenses.remove(a.id, a.licenses[0]!)).toEqual({ images: 1 });
    expect(await camerasOf(a.licenses[0]!)).toBe(0);
    expect(await camerasOf(a.licenses[1]!)).toBe(1);
    const after = await blobKeys(a.id);
    expect(after.length).toBe(1);
    const gone = before.find((k) => !after.includes(k))!;
    expect(await t.container.blobs.get(gone)).toBeUndefined();
    expect(await t.container.blobs.get(after[0]!)).toBeInstanceOf(Buffer);
    expect((await blobKeys(other.id)).length).toBe(1);
  });

  it('an upload whose analysis runs after its license went leaves no image behind', async () => {
    const a = await customerWithCameras(1);
    const camera = await t.container.db.selectFrom('cameras').select('id').where('license_id', '=', a.licenses[0]!).executeTakeFirstOrThrow();
    // As the upload route stores it, before its job runs.
    const late = await t.container.images.store(a.id, scene, 'uploads');
    await t.container.licenses.remove(a.id, a.licenses[0]!);
    expect(await blobKeys(a.id)).toEqual([late.blobKey]);
    await t.container.camera.analysis.run({ cameraId: camera.id, imageId: late.id, uploadedAt: Date.now() });
    expect(await blobKeys(a.id)).toEqual([]);
    expect(await t.container.blobs.get(late.blobKey)).toBeUndefined();
  });

  it('refuses another account\'s license (403) and a missing one (404), deleting nothing', async () => {
    const a = await customerWithCameras(1);
    const other = await customerWithCameras(1);
    await expect(t.container.licenses.remove(a.id, other.licenses[0]!)).rejects.toMatchObject({ status: 403 });
    await expect(t.container.licenses.remove(a.id, 987654)).rejects.toMatchObject({ status: 404 });
    expect(await camerasOf(other.licenses[0]!)).toBe(1);
  });

  it('an account goes with everything it owns: its token stops working and its image files are deleted', async () => {
    const a = await customerWithCameras(2);
    const other = await customerWithCameras(1);
    const keys = await blobKeys(a.id);
    expect(await t.container.accounts.remove(a.email)).toEqual({ id: a.id, images: 2 });
    expect((await t.app.inject({ url: '/v1/camera-monitoring/licenses/', headers: a.auth })).statusCode).toBe(401);
    for (const key of keys) expect(await t.container.blobs.get(key)).toBeUndefined();
    expect(await camerasOf(a.licenses[1]!)).toBe(0);
    expect((await t.app.inject({ url: '/v1/camera-monitoring/licenses/', headers: other.auth })).statusCode).toBe(200);
    expect((await blobKeys(other.id)).length).toBe(1);
    await expect(t.container.accounts.remove(a.email)).rejects.toMatchObject({ status: 404 });
  });
});
