import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../fixtures/images.js';
import { multipartBody } from '../helpers/multipart.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/** Every API endpoint against callers who must not get in: no token, a malformed header, a
 * revoked token, and a valid token of another account reaching for the owner's resources. */
describe('access matrix', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<TestApp['account']>>;
  let stranger: Awaited<ReturnType<TestApp['account']>>;
  let revoked: Record<string, string>;
  let licenseId: number;
  let webhookId: number;
  let upload: { payload: Buffer; headers: Record<string, string> };
  beforeAll(async () => {
    t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000', RECOGNITION_RATE_PER_SECOND: '1000' }, { workers: false });
    owner = await t.account();
    stranger = await t.account();
    const gone = await t.account();
    await t.container.tokens.revoke(gone.token);
    revoked = gone.auth;
    licenseId = (await t.container.licenses.create({ accountId: owner.id, size: 5, expiration: new Date(Date.now() + 86_400_000) })).id;
    await t.container.licenses.create({ accountId: stranger.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    upload = await multipartBody({ upload: { bytes: await sceneJpeg(160, 120, 2) }, camera_id: 'OWNED' });
    expect((await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload: upload.payload, headers: { ...upload.headers, ...owner.auth } })).statusCode).toBe(201);
    webhookId = (await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: owner.auth, payload: { url: 'https://hooks.example.com/x', family: 'camera-monitoring' } })).json().id;
  });
  afterAll(async () => t.close());

  const P = '/v1/camera-monitoring';
  const endpoints = (): Array<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: 'upload' | object; owned: boolean }> => [
    { method: 'GET', url: `${P}/licenses/`, owned: false },
    { method: 'POST', url: `${P}/create-log/`, body: 'upload', owned: false },
    { method: 'GET', url: `${P}/${licenseId}/cameras/`, owned: true },
    { method: 'GET', url: `${P}/${licenseId}/cameras/OWNED/logs/`, owned: true },
    { method: 'GET', url: `${P}/${licenseId}/cameras/OWNED/reference/`, owned: true },
    { method: 'POST', url: `${P}/${licenseId}/cameras/OWNED/reference/`, body: 'upload', owned: true },
    { method: 'GET', url: `${P}/${licenseId}/cameras/OWNED/thresholds/`, owned: true },
    { method: 'PUT', url: `${P}/${licenseId}/cameras/OWNED/thresholds/`, body: { thresholds: { Blur: 0.9 } }, owned: true },
    { method: 'DELETE', url: `${P}/${licenseId}/cameras/OWNED/`, owned: true },
    { method: 'GET', url: `${P}/${licenseId}/alerts/`, owned: true },
    { method: 'GET', url: `/v1/vision-alert/${licenseId}/cameras/`, owned: true },
    { method: 'GET', url: '/v1/webhooks/', owned: false },
    { method: 'POST', url: '/v1/webhooks/', body: { url: 'https://hooks.example.com/y' }, owned: false },
    { method: 'DELETE', url: `/v1/webhooks/${webhookId}/`, owned: true },
    { method: 'POST', url: `/v1/webhooks/${webhookId}/enable/`, owned: true },
    { method: 'GET', url: `/v1/webhooks/${webhookId}/deliveries/`, owned: true },
    { method: 'POST', url: '/v1/ocr/reader/', body: 'upload', owned: false },
    { method: 'POST', url: '/v1/vin/reader/', body: 'upload', owned: false },
    { method: 'POST', url: '/v1/trailer-id/reader/', body: 'upload', owned: false },
    { method: 'POST', url: '/v1/plate-reader/', body: 'upload', owned: false },
    { method: 'GET', url: '/v1/ocr/statistics/', owned: false },
    { method: 'GET', url: '/v1/vin/statistics/', owned: false },
    { method: 'GET', url: '/v1/trailer-id/statistics/', owned: false },
    { method: 'GET', url: '/v1/statistics/', owned: false },
  ];

  const call = (e: ReturnType<typeof endpoints>[number], headers: Record<string, string>) => {
    if (e.body === 'upload') return t.app.inject({ method: e.method, url: e.url, payload: upload.payload, headers: { ...upload.headers, ...headers } });
    return t.app.inject({ method: e.method, url: e.url, headers, ...(e.body ? { payload: e.body } : {}) });
  };

  it('answers 401 without a token, with a malformed header and with a revoked token, on every endpoint', async () => {
    for (const e of endpoints()) {
      for (const headers of [{}, { authorization: 'Token' }, { authorization: `Bearer ${owner.token}` }, { authorization: 'Token vgl_' + 'x'.repeat(32) }, revoked]) {
        const res = await call(e, headers);
        expect(res.statusCode, `${e.method} ${e.url} ${JSON.stringify(headers)}`).toBe(401);
      }
    }
  });

  it("keeps another account out of the owner's licenses, cameras and webhooks, changing nothing", async () => {
    for (const e of endpoints().filter((x) => x.owned)) {
      const res = await call(e, stranger.auth);
      const expected = e.url.startsWith('/v1/webhooks') ? 404 : 403;
      expect(res.statusCode, `${e.method} ${e.url}`).toBe(expected);
    }
    // Still there, untouched.
    const cams = (await t.app.inject({ url: `${P}/${licenseId}/cameras/`, headers: owner.auth })).json();
    expect(cams.map((c: { serial: string }) => c.serial)).toEqual(['OWNED']);
    const th = (await t.app.inject({ url: `${P}/${licenseId}/cameras/OWNED/thresholds/`, headers: owner.auth })).json();
    expect(th.thresholds.Blur).toBe(0.5);
    expect((await t.app.inject({ url: '/v1/webhooks/', headers: owner.auth })).json()).toHaveLength(1);
  });
});
