import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlateReader, PlateReadOptions, PlateReadResult } from '../../../vision/plates/plate.types.js';
import { sceneJpeg } from '../../../../test/fixtures/images.js';
import { startHttpReceiver, type HttpReceiver } from '../../../../test/helpers/http-receiver.js';
import { multipartBody } from '../../../../test/helpers/multipart.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';
import { EngineBusyError } from '../../../vision/runtime/worker-pool.js';

/** Requests shaped like the existing clients (home automation, NVR plugins, Node-RED, vendor
 * scripts) and every field they read. The pipeline is a recorder here so options can be
 * checked; the real pipeline is measured by bench:plates and tested in src/vision/plates. */
class RecordingReader implements PlateReader {
  last: PlateReadOptions | undefined;
  async read(_image: Buffer, options: PlateReadOptions): Promise<PlateReadResult> {
    this.last = options;
    return {
      plates: [{
        box: { xmin: 10, ymin: 20, xmax: 90, ymax: 45 }, plate: 'nhk552', region: { code: 'gb', score: 0.747 }, score: 0.904,
        candidates: [{ plate: 'nhk552', score: 0.904 }, { plate: 'nhk562', score: 0.7 }], dscore: 0.99,
        vehicle: options.regions.includes('br') ? undefined : { type: 'Sedan', score: 0.798, box: { xmin: 0, ymin: 0, xmax: 120, ymax: 80 } },
        color: [{ color: 'white', score: 0.8 }], orientation: [{ orientation: 'Rear', score: 0.9 }],
      }],
      vehiclesWithoutPlate: [{ vehicle: { type: 'Bus', score: 0.6, box: { xmin: 100, ymin: 0, xmax: 200, ymax: 90 } } }],
    };
  }
}

describe('plate reader API', () => {
  let t: TestApp;
  let reader: RecordingReader;
  let image: Buffer;
  beforeAll(async () => {
    reader = new RecordingReader();
    t = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000' }, { plateReader: reader });
    image = await sceneJpeg(200, 120, 4);
  });
  afterAll(async () => t.close());

  it('hosted: 201 with every field clients read, without trailing slash, comma-joined regions, config {}', async () => {
    const a = await t.account();
    const { payload, headers } = await multipartBody({ upload: { bytes: image, filename: 'car.jpg' }, regions: 'us,ca', config: '{}' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/plate-reader', payload, headers: { ...headers, ...a.auth } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ processing_time: expect.any(Number), filename: 'car.jpg', version: 1, camera_id: null });
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(body.results[0]).toEqual({
      box: { xmin: 10, ymin: 20, xmax: 90, ymax: 45 }, plate: 'nhk552', region: { code: 'gb', score: 0.747 }, score: 0.904,
      candidates: [{ plate: 'nhk552', score: 0.904 }, { plate: 'nhk562', score: 0.7 }], dscore: 0.99,
      vehicle: { type: 'Sedan', score: 0.798, box: { xmin: 0, ymin: 0, xmax: 120, ymax: 80 } },
    });
    expect(reader.last).toMatchObject({ regions: ['us', 'ca'], mode: 'normal', thresholdD: 0.2, thresholdO: 0.6, mmc: false });
    // The Home Assistant integration reads `usage` from any server that is not the vendor's cloud.
    expect(body.usage).toEqual({ calls: 1, max_calls: 2500 });
  });

  it('hosted: base64 JSON upload, repeated regions, mmc and a full config', async () => {
    const a = await t.account();
    const res = await t.app.inject({
      method: 'POST', url: '/v1/plate-reader/', headers: a.auth,
      payload: { upload: image.toString('base64'), regions: ['us-ca', 'mx'], mmc: 'true', camera_id: 'gate', config: JSON.stringify({ mode: 'fast', threshold_d: 0.3, threshold_o: 0.5, detection_rule: 'strict', region: 'strict', text_formats: ['^[a-z]{3}\\d{3}$'] }) },
    });
    expect(res.statusCode).toBe(201);
    const r = res.json().results[0];
    expect(r).toMatchObject({ model_make: [{ make: 'unknown', model: 'unknown', score: 0 }], color: [{ color: 'white', score: 0.8 }], orientation: [{ orientation: 'Rear', score: 0.9 }] });
    expect(res.json()).toMatchObject({ camera_id: 'gate', filename: 'upload' });
    expect(reader.last).toEqual({ regions: ['us-ca', 'mx'], strictRegion: true, textFormats: ['^[a-z]{3}\\d{3}$'], mode: 'fast', thresholdD: 0.3, thresholdO: 0.5, strictDetection: true, mmc: true });
  });

  it('always sends vehicle, dscore and candidates; a missing vehicle is Unknown with zero box', async () => {
    const a = await t.account();
    const { payload, headers } = await multipartBody({ upload: { bytes: image }, regions: 'br' });
    const r = (await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers: { ...headers, ...a.auth } })).json().results[0];
    expect(r.vehicle).toEqual({ score: 0, type: 'Unknown', box: { xmin: 0, ymin: 0, xmax: 0, ymax: 0 } });
    expect(r).toHaveProperty('dscore');
    expect(r).toHaveProperty('candidates');
  });

  it('detection_mode vehicle groups results by vehicle', async () => {
    const a = await t.account();
    const { payload, headers } = await multipartBody({ upload: { bytes: image }, config: '{"detection_mode":"vehicle"}' });
    const results = (await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers: { ...headers, ...a.auth } })).json().results;
    expect(results[0]).toEqual({
      plate: { type: 'Plate', score: 0.99, box: { xmin: 10, ymin: 20, xmax: 90, ymax: 45 }, props: { plate: [{ value: 'nhk552', score: 0.904 }, { value: 'nhk562', score: 0.7 }], region: [{ value: 'gb', score: 0.747 }] } },
      vehicle: { type: 'Sedan', score: 0.798, box: { xmin: 0, ymin: 0, xmax: 120, ymax: 80 }, props: { make_model: [{ make: 'unknown', model: 'unknown', score: 0 }], orientation: [{ value: 'Rear', score: 0.9 }], color: [{ value: 'white', score: 0.8 }] } },
    });
    expect(results[1]).toEqual({ vehicle: expect.objectContaining({ type: 'Bus', props: expect.any(Object) }) });
    expect(results[1]).not.toHaveProperty('plate');
  });

  it.each([
    ['invalid JSON config', { config: '{mode: fast' }, /config is not valid JSON/],
    ['an unknown mode', { config: '{"mode":"turbo"}' }, /config.mode/],
    ['a bad threshold', { config: '{"threshold_d": 7}' }, /threshold_d/],
    ['a bad regex', { config: '{"text_formats": ["(("]}' }, /regular expression/],
    ['a bad region', { regions: 'United States' }, /Invalid region/],
    ['a bad mmc', { mmc: 'perhaps' }, /mmc/],
  ])('answers 400 {detail, status_code} for %s', async (_n, fields, message) => {
    const a = await t.account();
    const { payload, headers } = await multipartBody({ upload: { bytes: image }, ...fields });
    const res = await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers: { ...headers, ...a.auth } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status_code: 400, detail: expect.stringMatching(message) });
  });

  it('answers 413 above the 3 MB plate limit, 403 without credits, and counts usage in /v1/statistics/', async () => {
    const a = await t.account();
    const big = Buffer.concat([image, Buffer.alloc(3 * 1024 * 1024)]);
    const { payload, headers } = await multipartBody({ upload: { bytes: big } });
    expect((await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers: { ...headers, ...a.auth } })).statusCode).toBe(413);
    await t.container.usage.setTotalCalls(a.id, 'plate-reader', 1);
    const ok = await multipartBody({ upload: { bytes: image } });
    expect((await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload: ok.payload, headers: { ...ok.headers, ...a.auth } })).statusCode).toBe(201);
    const over = await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload: ok.payload, headers: { ...ok.headers, ...a.auth } });
    expect(over.statusCode).toBe(403);
    const stats = (await t.app.inject({ url: '/v1/statistics', headers: a.auth })).json();
    expect(stats).toMatchObject({ usage: { calls: 1 }, total_calls: 1 });
    expect((await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload: ok.payload, headers: ok.headers })).statusCode).toBe(401);
  });
});

describe('plate reader under overload', () => {
  it('answers a full engine queue as overload: 503 with Retry-After and a message that says so, the call refunded', async () => {
    const busy = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000' }, { plateReader: { read: async () => { throw new EngineBusyError('plates'); } } });
    try {
      const a = await busy.account();
      const { payload, headers } = await multipartBody({ upload: { bytes: await sceneJpeg(200, 100, 3) } });
      const res = await busy.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers: { ...headers, ...a.auth } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(res.json()).toMatchObject({ status_code: 503, code: 'engine_busy', detail: expect.stringMatching(/busy/) });
      expect((await busy.app.inject({ url: '/v1/statistics/', headers: a.auth })).json().usage.calls).toBe(0);
    } finally {
      await busy.close();
    }
  });
});

describe('plate webhooks', () => {
  let t: TestApp;
  let receiver: HttpReceiver;
  let image: Buffer;
  beforeAll(async () => {
    receiver = await startHttpReceiver();
    t = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000', OUTBOUND_ALLOW: '127.0.0.1' }, { plateReader: new RecordingReader() });
    image = await sceneJpeg(200, 120, 5);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const read = async (auth: Record<string, string>) => {
    const { payload, headers } = await multipartBody({ upload: { bytes: image, filename: 'gate.jpg' }, regions: 'gb' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers: { ...headers, ...auth } });
    expect(res.statusCode).toBe(201);
    return res.json();
  };
  const hook = async (auth: Record<string, string>, path: string, format?: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: auth, payload: { url: `${receiver.url}${path}`, family: 'plate-reader', ...(format ? { format } : {}) } });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; format: string };
  };

  it('image.done goes to a JSON target as application/json and to a multipart target as a form with json and the image as upload', async () => {
    const a = await t.account();
    const json = await hook(a.auth, '/plates-json');
    const form = await hook(a.auth, '/plates-form', 'multipart');
    expect([json.format, form.format]).toEqual(['json', 'multipart']);
    // The event carries the reading; `usage` belongs to the answer of the call only.
    const { usage: _usage, ...response } = await read(a.auth);
    await t.container.runner.drain();
    const got = (await receiver.waitFor(2)).filter((r) => r.url.startsWith('/plates-'));
    const byUrl = Object.fromEntries(got.map((r) => [r.url, r]));

    expect(byUrl['/plates-json']!.headers['content-type']).toBe('application/json');
    const envelope = byUrl['/plates-json']!.json();
    expect(envelope).toEqual({
      hook: { target: `${receiver.url}/plates-json`, id: json.id, event: 'image.done' },
      data: { ...response, file_url: expect.stringMatching(/^http:\/\/vigil\.test\/v1\/images\//) },
    });

    const parts = await byUrl['/plates-form']!.form();
    const inForm = JSON.parse(String(parts.get('json')));
    expect(inForm.hook).toEqual({ target: `${receiver.url}/plates-form`, id: form.id, event: 'image.done' });
    expect(inForm.data.results[0].plate).toBe('nhk552');
    const upload = parts.get('upload') as File;
    expect(Buffer.from(await upload.arrayBuffer()).equals(image)).toBe(true);
  });

  it('is sent for an image with no plate too', async () => {
    const empty = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000', OUTBOUND_ALLOW: '127.0.0.1' }, { plateReader: { read: async () => ({ plates: [], vehiclesWithoutPlate: [] }) } });
    try {
      const a = await empty.account();
      const created = await empty.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: a.auth, payload: { url: `${receiver.url}/no-plate`, family: 'plate-reader' } });
      expect(created.statusCode).toBe(201);
      const res = await empty.app.inject({ method: 'POST', url: '/v1/plate-reader/', headers: a.auth, payload: { upload: image.toString('base64') } });
      expect(res.json().results).toEqual([]);
      await empty.container.runner.drain();
      const [delivered] = (await receiver.waitFor(receiver.requests.length)).filter((r) => r.url === '/no-plate');
      expect(delivered!.json().data.results).toEqual([]);
    } finally {
      await empty.close();
    }
  });

  it('refuses multipart for families whose clients read JSON, and an unknown format', async () => {
    const a = await t.account();
    const ocr = await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: a.auth, payload: { url: `${receiver.url}/x`, family: 'ocr', format: 'multipart' } });
    expect(ocr.statusCode).toBe(400);
    expect(ocr.json().message).toBe('Only plate-reader webhooks can be sent as multipart; use json for this family.');
    const odd = await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: a.auth, payload: { url: `${receiver.url}/x`, family: 'plate-reader', format: 'xml' } });
    expect(odd.statusCode).toBe(400);
    const listed = (await t.app.inject({ url: '/v1/webhooks/', headers: a.auth })).json();
    expect(listed).toEqual([]);
  });
});

describe('on-premise profile', () => {
  let t: TestApp;
  let image: Buffer;
  beforeAll(async () => {
    t = await buildTestApp({ VIGIL_PROFILE: 'onprem', LICENSE_KEY: 'LK-123', MAX_CALLS: '2' }, { plateReader: new RecordingReader() });
    image = await sceneJpeg(200, 120, 4);
  });
  afterAll(async () => t.close());

  it('reads without a token: 200, usage {calls, max_calls}, space-separated timestamp, filename "upload"', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/plate-reader', payload: { upload: image.toString('base64') } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.usage).toEqual({ calls: 1, max_calls: 2 });
    expect(body.filename).toBe('upload');
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
    expect(body.results[0].plate).toBe('nhk552');
  });

  it('GET /info/ reports version, license key, total calls, usage and webhooks; past max_calls is 403', async () => {
    const info = (await t.app.inject({ url: '/info/' })).json();
    expect(info).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), license_key: 'LK-123', total_calls: 2, usage: { calls: expect.any(Number) }, webhooks: [] });
    const { payload, headers } = await multipartBody({ upload: { bytes: image } });
    await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers });
    const over = await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers });
    expect(over.statusCode).toBe(403);
    expect(over.json().detail).toMatch(/limit reached/);
  });

  it('serves no hosted API in this profile', async () => {
    expect((await t.app.inject({ url: '/v1/camera-monitoring/licenses/' })).statusCode).toBe(404);
  });
});
