import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../../../../test/fixtures/images.js';
import { multipartBody } from '../../../../test/helpers/multipart.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';
import { EngineBusyError } from '../../../vision/runtime/worker-pool.js';

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
    // Operations endpoints and signed image URLs are in the document too.
    for (const path of ['/healthz', '/readyz', '/metrics', '/v1/images/{publicId}']) expect(doc.paths[path]?.get, path).toBeDefined();
    // Upload endpoints describe their form fields, so /docs can try an upload.
    const form = (path: string) => Object.keys(doc.paths[path].post.requestBody.content['multipart/form-data'].schema.properties).sort();
    expect(form('/v1/camera-monitoring/create-log/')).toEqual(['camera_id', 'tag', 'upload']);
    expect(form('/v1/plate-reader/')).toEqual(['camera_id', 'config', 'mmc', 'regions', 'timestamp', 'upload', 'upload_url']);
    expect(form('/v1/ocr/reader/')).toContain('type');
    expect(doc.paths['/v1/camera-monitoring/create-log/'].post.requestBody.content['multipart/form-data'].schema.properties.upload.format).toBe('binary');
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

describe('operator metrics', () => {
  it('report the job queue, analyses, recognition calls by outcome and rate-limit refusals', async () => {
    let busy = false;
    const t = await buildTestApp({ UPLOAD_RATE_PER_SECOND: '1' }, {
      workers: false,
      analyzer: { analyze: async () => ({ kind: 'scores', scores: { Blur: 0.1, Obstruction: 0.1, Glare: 0.1, 'Position change': 0.1 } }) },
      plateReader: { read: async () => { if (busy) throw new EngineBusyError('plates'); return { plates: [], vehiclesWithoutPlate: [] }; } },
    });
    try {
      const a = await t.account();
      await t.container.licenses.create({ accountId: a.id, size: 2, expiration: new Date(Date.now() + 86_400_000) });
      const scene = await sceneJpeg(320, 240, 5);
      const send = async () => {
        const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: 'M1' });
        return t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...a.auth } });
      };
      expect((await send()).statusCode).toBe(201);
      expect((await send()).statusCode).toBe(429);
      const metrics = async () => (await t.app.inject({ url: '/metrics' })).body;
      let text = await metrics();
      expect(text).toMatch(/^vigil_jobs_waiting\{kind="camera\.analyze"\} 1$/m);
      expect(text).toMatch(/^vigil_job_oldest_due_age_seconds\{kind="camera\.analyze"\} \d/m);
      expect(text).toMatch(/^vigil_rate_limited_total\{kind="upload"\} 1$/m);

      t.container.startWorkers();
      await t.container.runner.drain(10_000);
      const plate = async () => {
        const { payload, headers } = await multipartBody({ upload: { bytes: scene } });
        return t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers: { ...headers, ...a.auth } });
      };
      expect((await plate()).statusCode).toBe(201);
      busy = true;
      expect((await plate()).statusCode).toBe(503);
      text = await metrics();
      expect(text).toMatch(/^vigil_camera_analyses_total\{status="normal"\} 1$/m);
      expect(text).not.toMatch(/^vigil_jobs_waiting\{kind="camera\.analyze"\} [1-9]/m);
      expect(text).toMatch(/^vigil_recognition_calls_total\{family="plate-reader",outcome="read"\} 1$/m);
      expect(text).toMatch(/^vigil_recognition_calls_total\{family="plate-reader",outcome="busy"\} 1$/m);
      expect(text).toMatch(/^vigil_recognition_engine_seconds_count\{family="plate-reader"\} 1$/m);
    } finally {
      await t.close();
    }
  });
});
