import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

describe('operations endpoints', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => t.close());

  it('GET /healthz answers while the process is alive', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect([res.statusCode, res.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('GET /readyz reports each part and turns 503 when one fails', async () => {
    expect((await t.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    t.container.readiness.set('models', async () => { throw new Error('loading'); });
    const res = await t.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'not_ready', checks: { database: 'ok', models: 'loading' } });
    t.container.readiness.delete('models');
  });

  it('GET /metrics exposes request durations in Prometheus format', async () => {
    await t.app.inject({ url: '/healthz' });
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toMatch(/vigil_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} [1-9]/);
  });

  it('serves an OpenAPI document generated from the route schemas, and a reference page', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    // Valid as a whole, by a real OpenAPI validator (it was not: 3.0 wants a boolean exclusiveMaximum).
    const validation = await new Validator().validate(doc);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(doc.paths['/v1/camera-monitoring/licenses/'].get.responses['200']).toBeDefined();
    // The plate reader's results are described field by field, both result shapes.
    const plateResults = doc.paths['/v1/plate-reader/'].post.responses['201'].content['application/json'].schema.properties.results.items;
    const shapes = (plateResults.anyOf ?? plateResults.oneOf) as Array<{ properties: Record<string, unknown> }>;
    expect(shapes.map((s) => Object.keys(s.properties).sort())).toEqual([
      ['box', 'candidates', 'color', 'dscore', 'model_make', 'orientation', 'plate', 'region', 'score', 'vehicle'],
      ['plate', 'vehicle'],
    ]);
    const page = await t.app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/swagger/i);
  });

  it('answers unknown routes with 404 in the JSON error shape', async () => {
    const res = await t.app.inject({ url: '/v1/nothing-here/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'route_not_found' });
  });
});

describe('with Redis', () => {
  it('shares upload rate limits and reports Redis in /readyz', async () => {
    const { Redis } = await import('ioredis');
    const probe = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    const up = await probe.connect().then(() => true, () => false);
    probe.disconnect();
    if (!up) return;
    const t = await buildTestApp({ REDIS_URL: 'redis://127.0.0.1:6379' });
    try {
      expect((await t.app.inject({ url: '/readyz' })).json().checks).toEqual({ database: 'ok', redis: 'ok' });
    } finally {
      await t.close();
    }
  });
});
