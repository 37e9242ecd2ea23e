import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

describe('GET /v1/camera-monitoring/licenses/', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => t.close());

  it('answers 401 with a JSON message without a token, with a wrong one, and with a revoked one', async () => {
    const { token } = await t.account();
    await t.container.tokens.revoke(token);
    for (const authorization of [undefined, 'Token vgl_nope', 'Bearer x', `Token ${token}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/camera-monitoring/licenses/', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Invalid or missing API token.', code: 'unauthorized' });
    }
  });

  it('lists only the caller\'s licenses, most recent first, in the spec\'s fields', async () => {
    const me = await t.account();
    const other = await t.account();
    const older = await t.container.licenses.create({ accountId: me.id, size: 5, expiration: new Date('2030-01-01T00:00:00Z'), vaType: 'milestone' });
    await new Promise((r) => setTimeout(r, 5));
    const newer = await t.container.licenses.create({ accountId: me.id, size: 2, expiration: new Date('2031-06-30T00:00:00Z') });
    await t.container.licenses.create({ accountId: other.id, size: 9, expiration: new Date('2030-01-01T00:00:00Z') });

    for (const url of ['/v1/camera-monitoring/licenses/', '/v1/camera-monitoring/licenses', '/v1/vision-alert/licenses/']) {
      const res = await t.app.inject({ method: 'GET', url, headers: me.auth });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.map((l: { id: number }) => l.id)).toEqual([newer.id, older.id]);
      expect(body[1]).toEqual({
        id: older.id, code: older.code, size: 5, va_type: 'milestone',
        expiration: '2030-01-01T00:00:00.000Z', created: expect.stringMatching(/Z$/), modified: expect.stringMatching(/Z$/),
      });
      expect(body[0].va_type).toBe('api');
    }
  });

  it('allows every origin (CORS)', async () => {
    const me = await t.account();
    const res = await t.app.inject({ method: 'GET', url: '/v1/camera-monitoring/licenses/', headers: { ...me.auth, origin: 'https://elsewhere.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});
