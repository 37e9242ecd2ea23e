import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';
import { WebhookRepository } from '../../../storage/repositories/webhook.repository.js';
import { authPlugin } from '../../plugins/auth.plugin.js';
import { errorsPlugin } from '../../plugins/errors.plugin.js';
import { webhookRoutes } from './webhooks.routes.js';

/** The app's own routes when app.ts registers them; otherwise the same plugins around them. */
async function withWebhookRoutes(t: TestApp): Promise<FastifyInstance> {
  if (t.app.hasRoute({ method: 'GET', url: '/v1/webhooks/' })) return t.app;
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  await app.register(errorsPlugin);
  await app.register(authPlugin, { tokens: t.container.tokens });
  await app.register(webhookRoutes, { prefix: '/v1', webhooks: t.container.notifications.webhooks });
  await app.ready();
  return app;
}

describe('/v1/webhooks/', () => {
  let t: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await buildTestApp();
    app = await withWebhookRoutes(t);
  });
  afterAll(async () => {
    if (app !== t.app) await app.close();
    await t.close();
  });

  it('answers 401 on every route without a valid token', async () => {
    for (const [method, url] of [['GET', '/v1/webhooks/'], ['POST', '/v1/webhooks/'], ['DELETE', '/v1/webhooks/1/'], ['POST', '/v1/webhooks/1/enable/'], ['GET', '/v1/webhooks/1/deliveries/']] as const) {
      const res = await app.inject({ method, url, headers: { authorization: 'Token vgl_nope' }, ...(method === 'POST' ? { payload: {} } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ message: 'Invalid or missing API token.', code: 'unauthorized' });
    }
  });

  it('creates a target (201 with its secret once), lists it without the secret, deletes it (204)', async () => {
    const me = await t.account();
    const res = await app.inject({ method: 'POST', url: '/v1/webhooks/', headers: me.auth, payload: { url: 'https://hooks.example.com/vigil', family: 'ocr' } });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({ id: expect.any(Number), url: 'https://hooks.example.com/vigil', family: 'ocr', format: 'json', active: true, secret: expect.stringMatching(/^whsec_/), created: expect.stringMatching(/Z$/) });

    // Family defaults to camera-monitoring; both paths with and without the slash.
    const cam = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: me.auth, payload: { url: 'https://hooks.example.com/cam' } });
    expect(cam.statusCode).toBe(201);
    expect(cam.json().family).toBe('camera-monitoring');

    const list = await app.inject({ method: 'GET', url: '/v1/webhooks/', headers: me.auth });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({ id: cam.json().id, family: 'camera-monitoring' }),
      { id: created.id, url: 'https://hooks.example.com/vigil', family: 'ocr', format: 'json', active: true, consecutive_failures: 0, created: created.created, disabled_at: null },
    ]);
    expect(list.body).not.toContain('whsec_');

    const del = await app.inject({ method: 'DELETE', url: `/v1/webhooks/${created.id}/`, headers: me.auth });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const after = await app.inject({ method: 'GET', url: '/v1/webhooks/', headers: me.auth });
    expect(after.json().map((w: { id: number }) => w.id)).toEqual([cam.json().id]);
  });

  it('refuses private, loopback, metadata and non-http URLs and bad bodies with 400 and a reason', async () => {
    const me = await t.account();
    const cases: Array<[unknown, RegExp]> = [
      [{ url: 'http://127.0.0.1:8080/hook' }, /loopback address/],
      [{ url: 'http://10.0.0.8/hook' }, /private network address/],
      [{ url: 'http://169.254.169.254/latest/meta-data/' }, /cloud metadata/],
      [{ url: 'http://[::ffff:127.0.0.1]/' }, /loopback/],
      [{ url: 'http://localhost:3000/' }, /internal host name/],
      [{ url: 'file:///etc/passwd' }, /Only http and https/],
      [{ url: 'https://ok.example/', family: 'sms' }, /family/],
      [{}, /url/],
    ];
    for (const [payload, message] of cases) {
      const res = await app.inject({ method: 'POST', url: '/v1/webhooks/', headers: me.auth, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await app.inject({ method: 'GET', url: '/v1/webhooks/', headers: me.auth })).json()).toEqual([]);
  });

  it('answers 409 for the same URL and family twice', async () => {
    const me = await t.account();
    const payload = { url: 'https://twice.example/', family: 'plate-reader' };
    expect((await app.inject({ method: 'POST', url: '/v1/webhooks/', headers: me.auth, payload })).statusCode).toBe(201);
    const again = await app.inject({ method: 'POST', url: '/v1/webhooks/', headers: me.auth, payload });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('webhook_exists');
  });

  it('treats another account\'s webhook as unknown (404) on delete, enable and deliveries', async () => {
    const owner = await t.account();
    const intruder = await t.account();
    const { id } = (await app.inject({ method: 'POST', url: '/v1/webhooks/', headers: owner.auth, payload: { url: 'https://mine.example/' } })).json();
    for (const [method, url] of [['DELETE', `/v1/webhooks/${id}/`], ['POST', `/v1/webhooks/${id}/enable/`], ['GET', `/v1/webhooks/${id}/deliveries/`], ['GET', '/v1/webhooks/987654/deliveries/']] as const) {
      const res = await app.inject({ method, url, headers: intruder.auth });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ message: expect.stringMatching(/^No webhook \d+\.$/), code: 'webhook_not_found' });
    }
    expect((await app.inject({ method: 'GET', url: '/v1/webhooks/', headers: intruder.auth })).json()).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/v1/webhooks/', headers: owner.auth })).json()).toHaveLength(1);
    expect((await app.inject({ method: 'GET', url: '/v1/webhooks/abc/deliveries/', headers: owner.auth })).statusCode).toBe(400);
  });

  it('re-enables a deactivated target and shows recent delivery attempts, newest first', async () => {
    const me = await t.account();
    const { id } = (await app.inject({ method: 'POST', url: '/v1/webhooks/', headers: me.auth, payload: { url: 'https://flaky.example/' } })).json();
    const repo = new WebhookRepository(t.container.db);
    await repo.recordAttempt({ webhookId: id, event: 'alert.created', attempt: 1, statusCode: 500, durationMs: 12.4, error: 'The target answered 500.', succeeded: false });
    await repo.recordAttempt({ webhookId: id, event: 'alert.created', attempt: 2, statusCode: null, durationMs: 10_000, error: 'timeout', succeeded: false });
    await repo.incrementFailures(id);
    await repo.deactivate(id);

    const listed = (await app.inject({ method: 'GET', url: '/v1/webhooks/', headers: me.auth })).json();
    expect(listed[0]).toMatchObject({ id, active: false, consecutive_failures: 1, disabled_at: expect.stringMatching(/Z$/) });

    const deliveries = await app.inject({ method: 'GET', url: `/v1/webhooks/${id}/deliveries/`, headers: me.auth });
    expect(deliveries.statusCode).toBe(200);
    expect(deliveries.json()).toEqual([
      { id: expect.any(Number), event: 'alert.created', attempt: 2, status_code: null, duration_ms: 10000, succeeded: false, error: 'timeout', created: expect.stringMatching(/Z$/) },
      { id: expect.any(Number), event: 'alert.created', attempt: 1, status_code: 500, duration_ms: 12, succeeded: false, error: 'The target answered 500.', created: expect.stringMatching(/Z$/) },
    ]);
    const limited = await app.inject({ method: 'GET', url: `/v1/webhooks/${id}/deliveries/?limit=1`, headers: me.auth });
    expect(limited.json()).toHaveLength(1);

    const enabled = await app.inject({ method: 'POST', url: `/v1/webhooks/${id}/enable/`, headers: me.auth });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json()).toMatchObject({ id, active: true, consecutive_failures: 0, disabled_at: null });
  });
});
