import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBomb, sceneJpeg } from '../../../../test/fixtures/images.js';
import { multipartBody } from '../../../../test/helpers/multipart.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

const P = '/v1/camera-monitoring';

describe('camera monitoring API', () => {
  let t: TestApp;
  let scene: Buffer;
  beforeAll(async () => {
    t = await buildTestApp({ UPLOAD_RATE_PER_SECOND: '1000', CAMERA_UPLOAD_INTERVAL_SECONDS: '900' });
    scene = await sceneJpeg(320, 240, 7);
  });
  afterAll(async () => t.close());

  async function customer(size = 3, features?: Parameters<TestApp['account']>[0]) {
    const a = await t.account(features);
    const license = await t.container.licenses.create({ accountId: a.id, size, expiration: new Date(Date.now() + 86_400_000) });
    return { ...a, license };
  }

  async function upload(auth: Record<string, string>, fields: Parameters<typeof multipartBody>[0], prefix = P) {
    const { payload, headers } = await multipartBody(fields);
    return t.app.inject({ method: 'POST', url: `${prefix}/create-log/`, payload, headers: { ...headers, ...auth } });
  }

  describe('POST /create-log/', () => {
    it('accepts an image with 201 and the spec message, registering the camera with its tag', async () => {
      const c = await customer();
      const res = await upload(c.auth, { upload: { bytes: scene }, camera_id: 'CAM-1', tag: 'gate' });
      expect([res.statusCode, res.json()]).toEqual([201, { message: 'Log created successfully.' }]);
      const cams = (await t.app.inject({ url: `${P}/${c.license.id}/cameras/`, headers: c.auth })).json();
      expect(cams).toEqual([expect.objectContaining({ serial: 'CAM-1', name: 'CAM-1', license: c.license.code, tags: ['gate'], notes: '', latest_status: null })]);
    });

    it('rejects a second upload within the interval with 429, the spec message and Retry-After', async () => {
      const c = await customer();
      expect((await upload(c.auth, { upload: { bytes: scene }, camera_id: 'CAM-2' })).statusCode).toBe(201);
      const again = await upload(c.auth, { upload: { bytes: scene }, camera_id: 'CAM-2', tag: 'late' });
      expect(again.statusCode).toBe(429);
      expect(again.json()).toMatchObject({ message: 'Camera already uploaded a log recently.' });
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(800);
      const cams = (await t.app.inject({ url: `${P}/${c.license.id}/cameras/`, headers: c.auth })).json();
      expect(cams[0].tags).toEqual([]); // a rejected upload changes nothing
    });

    it('keeps existing tags when a new one arrives, on the vision-alert alias too', async () => {
      const t2 = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000' });
      try {
        const a = await t2.account();
        const lic = await t2.container.licenses.create({ accountId: a.id, size: 1, expiration: new Date(Date.now() + 86_400_000) });
        for (const [tag, prefix] of [['north', P], ['yard', '/v1/vision-alert'], ['north', P]] as const) {
          const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: 'C', tag });
          const res = await t2.app.inject({ method: 'POST', url: `${prefix}/create-log`, payload, headers: { ...headers, ...a.auth } });
          expect(res.statusCode).toBe(201);
        }
        const cams = (await t2.app.inject({ url: `/v1/vision-alert/${lic.id}/cameras`, headers: a.auth })).json();
        expect(cams[0].tags).toEqual(['north', 'yard']);
      } finally {
        await t2.close();
      }
    });

    it.each([
      ['no file', { camera_id: 'X' }, /upload/],
      ['no camera_id', { upload: 'SCENE' }, /camera_id/],
      ['a text file', { upload: 'TEXT', camera_id: 'X' }, /not a readable image/],
      ['a truncated JPEG', { upload: 'TRUNCATED', camera_id: 'X' }, /corrupt or truncated/],
      ['an SVG', { upload: 'SVG', camera_id: 'X' }, /Unsupported image format/],
      ['a decompression bomb', { upload: 'BOMB', camera_id: 'X' }, /at most/],
      ['camera_id twice', { upload: 'SCENE', camera_id: ['X', 'Y'] }, /only once/],
    ])('answers 400 with a message for %s, storing nothing', async (_name, spec, message) => {
      const c = await customer();
      const files: Record<string, Buffer> = {
        SCENE: scene,
        TEXT: Buffer.from('this is not an image'),
        TRUNCATED: scene.subarray(0, Math.floor(scene.length / 2)),
        SVG: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="file:///etc/passwd"/></svg>'),
        BOMB: pngBomb(),
      };
      const fields: Parameters<typeof multipartBody>[0] = {};
      for (const [k, v] of Object.entries(spec)) fields[k] = k === 'upload' ? { bytes: files[v as string]! } : (v as string | string[]);
      const res = await upload(c.auth, fields);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
      expect((await t.app.inject({ url: `${P}/${c.license.id}/cameras/`, headers: c.auth })).json()).toEqual([]);
    });

    it('refuses the camera ids . and .., which no HTTP client could address afterwards', async () => {
      const c = await customer();
      for (const id of ['.', '..']) {
        const res = await upload(c.auth, { upload: { bytes: scene }, camera_id: id });
        expect([res.statusCode, res.json().message]).toEqual([400, 'camera_id cannot be "." or "..".']);
      }
      expect((await t.app.inject({ url: `${P}/${c.license.id}/cameras/`, headers: c.auth })).json()).toEqual([]);
    });

    it('answers 400 for a body that is not multipart', async () => {
      const c = await customer();
      const res = await t.app.inject({ method: 'POST', url: `${P}/create-log/`, headers: { ...c.auth, 'content-type': 'application/json' }, payload: '{"camera_id":"x"}' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('message');
    });

    it('answers 401 without a token and 403 when the feature is off', async () => {
      expect((await upload({}, { upload: { bytes: scene }, camera_id: 'X' })).statusCode).toBe(401);
      const c = await customer(3, ['ocr']);
      const res = await upload(c.auth, { upload: { bytes: scene }, camera_id: 'X' });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/not enabled/);
    });

    it('answers 403 when no license has room, or every license expired', async () => {
      const c = await customer(1);
      expect((await upload(c.auth, { upload: { bytes: scene }, camera_id: 'A' })).statusCode).toBe(201);
      const full = await upload(c.auth, { upload: { bytes: scene }, camera_id: 'B' });
      expect([full.statusCode, full.json().code]).toEqual([403, 'license_full']);

      const old = await t.account();
      await t.container.licenses.create({ accountId: old.id, size: 5, expiration: new Date(Date.now() - 1000) });
      const expired = await upload(old.auth, { upload: { bytes: scene }, camera_id: 'A' });
      expect([expired.statusCode, expired.json().code]).toEqual([403, 'license_expired']);
    });

    it('answers 413 over the upload size limit', async () => {
      const t2 = await buildTestApp({ MAX_UPLOAD_BYTES: '20000' });
      try {
        const a = await t2.account();
        await t2.container.licenses.create({ accountId: a.id, size: 1, expiration: new Date(Date.now() + 86_400_000) });
        const big = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).jpeg().toBuffer();
        const { payload, headers } = await multipartBody({ upload: { bytes: big }, camera_id: 'X' });
        const res = await t2.app.inject({ method: 'POST', url: `${P}/create-log/`, payload, headers: { ...headers, ...a.auth } });
        expect(res.statusCode).toBe(413);
        expect(res.json()).toHaveProperty('message');
      } finally {
        await t2.close();
      }
    });

    it('limits requests per token per second with 429 and Retry-After', async () => {
      const t2 = await buildTestApp({ UPLOAD_RATE_PER_SECOND: '1' });
      try {
        const a = await t2.account();
        await t2.container.licenses.create({ accountId: a.id, size: 10, expiration: new Date(Date.now() + 86_400_000) });
        const statuses: number[] = [];
        let limited;
        for (let i = 0; i < 3; i++) {
          const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: `R${i}` });
          const res = await t2.app.inject({ method: 'POST', url: `${P}/create-log/`, payload, headers: { ...headers, ...a.auth } });
          statuses.push(res.statusCode);
          if (res.statusCode === 429) limited = res;
        }
        expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
        expect(limited!.headers['retry-after']).toBe('1');
        expect(limited!.json().message).toMatch(/Rate limit/);
      } finally {
        await t2.close();
      }
    });

    it('counts one token once however its Authorization header is written', async () => {
      const t2 = await buildTestApp({ UPLOAD_RATE_PER_SECOND: '1' });
      try {
        const a = await t2.account();
        await t2.container.licenses.create({ accountId: a.id, size: 10, expiration: new Date(Date.now() + 86_400_000) });
        const spellings = [`Token ${a.token}`, `token ${a.token}`, `TOKEN  ${a.token}`, `Token ${a.token} `];
        const statuses: number[] = [];
        for (const [i, authorization] of spellings.entries()) {
          const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: `S${i}` });
          statuses.push((await t2.app.inject({ method: 'POST', url: `${P}/create-log/`, payload, headers: { ...headers, authorization } })).statusCode);
        }
        // One bucket of 1 per second: the spellings after the first are throttled, not fresh buckets.
        expect(statuses[0]).toBe(201);
        expect(statuses.slice(1).filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
      } finally {
        await t2.close();
      }
    });
  });

  describe('reads and ownership', () => {
    it('lists cameras in registration order filtered by status, including no_data', async () => {
      const c = await customer(5);
      for (const serial of ['N1', 'N2', 'N3']) await upload(c.auth, { upload: { bytes: scene }, camera_id: serial });
      await t.container.runner.drain(); // every camera now has its first (normal) log
      await t.container.db.updateTable('cameras').set({ latest_status: null }).where('serial', '=', 'N2').execute();
      const serials = async (q: string) => (await t.app.inject({ url: `${P}/${c.license.id}/cameras/${q}`, headers: c.auth })).json().map((x: { serial: string }) => x.serial);
      expect(await serials('')).toEqual(['N1', 'N2', 'N3']);
      expect(await serials('?status=no_data')).toEqual(['N2']);
      expect(await serials('?status=normal')).toEqual(['N1', 'N3']);
      expect(await serials('?status=anomaly')).toEqual([]);
      expect(await serials('?limit=1&offset=1')).toEqual(['N2']);
      expect((await t.app.inject({ url: `${P}/${c.license.id}/cameras/?status=sleeping`, headers: c.auth })).statusCode).toBe(400);
    });

    it('gives 403 for another account\'s license and camera, 404 for unknown ones', async () => {
      const me = await customer();
      const other = await customer();
      await upload(other.auth, { upload: { bytes: scene }, camera_id: 'THEIRS' });
      const urls = [
        `${P}/${other.license.id}/cameras/`,
        `${P}/${other.license.id}/alerts/`,
        `${P}/${other.license.id}/cameras/THEIRS/logs/`,
        `${P}/${other.license.id}/cameras/THEIRS/reference/`,
      ];
      for (const url of urls) expect((await t.app.inject({ url, headers: me.auth })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'DELETE', url: `${P}/${other.license.id}/cameras/THEIRS/`, headers: me.auth })).statusCode).toBe(403);
      expect((await t.app.inject({ url: `${P}/999999/cameras/`, headers: me.auth })).statusCode).toBe(404);
      expect((await t.app.inject({ url: `${P}/${me.license.id}/cameras/THEIRS/logs/`, headers: me.auth })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'DELETE', url: `${P}/${me.license.id}/cameras/NOPE/`, headers: me.auth })).statusCode).toBe(404);
      expect((await t.app.inject({ url: `${P}/abc/cameras/`, headers: me.auth })).statusCode).toBe(400);
    });

    it('validates log and alert filters', async () => {
      const c = await customer();
      await upload(c.auth, { upload: { bytes: scene }, camera_id: 'F' });
      const bad = [
        `${P}/${c.license.id}/cameras/F/logs/?start=2024-13-01`,
        `${P}/${c.license.id}/cameras/F/logs/?end=2024-02-30`,
        `${P}/${c.license.id}/cameras/F/logs/?start=2024-03-02&end=2024-03-01`,
        `${P}/${c.license.id}/cameras/F/logs/?status=broken`,
        `${P}/${c.license.id}/cameras/F/logs/?limit=0`,
        `${P}/${c.license.id}/cameras/F/logs/?offset=1e20`,
        `${P}/${c.license.id}/cameras/?offset=1e20`,
        `${P}/${c.license.id}/alerts/?offset=1e20`,
        `${P}/${c.license.id}/alerts/?sent=maybe`,
        `${P}/${c.license.id}/alerts/?start=yesterday`,
      ];
      for (const url of bad) {
        const res = await t.app.inject({ url, headers: c.auth });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toHaveProperty('message');
      }
    });
  });

  describe('wrong methods and enum values', () => {
    it('answers a known path with another method 405 and Allow, an unknown path 404', async () => {
      const c = await customer();
      const res = await t.app.inject({ method: 'DELETE', url: `${P}/${c.license.id}/cameras/`, headers: c.auth });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.json().message).toBe(`DELETE is not allowed on ${P}/${c.license.id}/cameras/; allowed: GET, HEAD.`);
      expect((await t.app.inject({ method: 'PUT', url: `${P}/create-log/` })).headers.allow).toBe('POST');
      expect((await t.app.inject({ method: 'GET', url: `${P}/${c.license.id}/nothing/` })).statusCode).toBe(404);
    });

    it('names the allowed values of an enum field', async () => {
      const c = await customer();
      const res = await t.app.inject({ url: `${P}/${c.license.id}/cameras/?status=broken`, headers: c.auth });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^Invalid querystring field "status": must be one of normal, anomaly, .*\.$/);
    });
  });

  describe('reference image', () => {
    it('is null before any upload, is set by POST (201) and served by a signed URL', async () => {
      const c = await customer();
      await upload(c.auth, { upload: { bytes: scene }, camera_id: 'R' });
      const url = `${P}/${c.license.id}/cameras/R/reference/`;
      expect((await t.app.inject({ url, headers: c.auth })).json()).toEqual({ reference_image: null });

      const { payload, headers } = await multipartBody({ upload: { bytes: scene } });
      const set = await t.app.inject({ method: 'POST', url, payload, headers: { ...headers, ...c.auth } });
      expect([set.statusCode, set.json()]).toEqual([201, { message: 'Reference image updated.' }]);
      const ref = (await t.app.inject({ url, headers: c.auth })).json().reference_image as string;
      expect(ref).toMatch(/^http:\/\/vigil\.test\/v1\/images\//);
      const img = await t.app.inject({ url: ref.replace('http://vigil.test', '') });
      expect(img.rawPayload.equals(scene)).toBe(true);
    });

    it('answers 400 without an image or with a bad one, 404 for an unknown serial', async () => {
      const c = await customer();
      await upload(c.auth, { upload: { bytes: scene }, camera_id: 'R' });
      const url = `${P}/${c.license.id}/cameras/R/reference/`;
      const none = await multipartBody({ note: 'no file' });
      expect((await t.app.inject({ method: 'POST', url, payload: none.payload, headers: { ...none.headers, ...c.auth } })).statusCode).toBe(400);
      const bad = await multipartBody({ upload: { bytes: Buffer.from('nope') } });
      expect((await t.app.inject({ method: 'POST', url, payload: bad.payload, headers: { ...bad.headers, ...c.auth } })).statusCode).toBe(400);
      const tiny = await multipartBody({ upload: { bytes: await sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } }).png().toBuffer() } });
      const small = await t.app.inject({ method: 'POST', url, payload: tiny.payload, headers: { ...tiny.headers, ...c.auth } });
      expect([small.statusCode, small.json().message]).toEqual([400, 'The reference image is 1x1 pixels; it needs at least 64 on each side.']);
      const good = await multipartBody({ upload: { bytes: scene } });
      const missing = await t.app.inject({ method: 'POST', url: `${P}/${c.license.id}/cameras/NOPE/reference/`, payload: good.payload, headers: { ...good.headers, ...c.auth } });
      expect(missing.statusCode).toBe(404);
    });
  });

  describe('thresholds (Vigil extension)', () => {
    it('defaults, partial updates and validation', async () => {
      const c = await customer();
      await upload(c.auth, { upload: { bytes: scene }, camera_id: 'T' });
      const url = `${P}/${c.license.id}/cameras/T/thresholds/`;
      const defaults = (await t.app.inject({ url, headers: c.auth })).json();
      expect(Object.keys(defaults.thresholds).sort()).toEqual(['Blur', 'Glare', 'Obstruction', 'Position change']);
      const res = await t.app.inject({ method: 'PUT', url, headers: c.auth, payload: { thresholds: { Blur: 0.9 }, review_band: 0.05 } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ thresholds: { ...defaults.thresholds, Blur: 0.9 }, review_band: 0.05 });
      for (const payload of [{ thresholds: { Blur: 2 } }, { thresholds: { Smoke: 0.5 } }, { review_band: 1.5 }]) {
        expect((await t.app.inject({ method: 'PUT', url, headers: c.auth, payload })).statusCode).toBe(400);
      }
    });
  });

  describe('DELETE camera', () => {
    it('answers 204 and removes the camera, its logs and every stored image', async () => {
      const c = await customer();
      await upload(c.auth, { upload: { bytes: scene }, camera_id: 'D' });
      await t.container.runner.drain();
      const ref = (await t.app.inject({ url: `${P}/${c.license.id}/cameras/D/reference/`, headers: c.auth })).json().reference_image as string;
      expect(ref).not.toBeNull();
      const res = await t.app.inject({ method: 'DELETE', url: `${P}/${c.license.id}/cameras/D/`, headers: c.auth });
      expect([res.statusCode, res.body]).toEqual([204, '']);
      expect((await t.app.inject({ url: `${P}/${c.license.id}/cameras/`, headers: c.auth })).json()).toEqual([]);
      expect((await t.app.inject({ url: ref.replace('http://vigil.test', '') })).statusCode).toBe(404);
      const left = await t.container.db.selectFrom('images').select('id').where('account_id', '=', c.id).execute();
      expect(left).toEqual([]);
    });
  });
});
