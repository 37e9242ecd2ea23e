import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OcrType, TextReading, TextRecognizer } from '../../../vision/ocr/ocr.types.js';
import { sceneJpeg } from '../../../../test/fixtures/images.js';
import { startHttpReceiver, type HttpReceiver } from '../../../../test/helpers/http-receiver.js';
import { multipartBody } from '../../../../test/helpers/multipart.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

/** The HTTP contract of the text readers. The engine is replaced by a recorder here so each
 * test controls what is "read"; test/e2e/ocr-engine.test.ts runs the real engine. */
class RecordingRecognizer implements TextRecognizer {
  calls: OcrType[] = [];
  fail = false;
  async read(type: OcrType): Promise<TextReading[]> {
    this.calls.push(type);
    if (this.fail) throw new Error('engine down');
    if (type === 'shipping_container') {
      return [
        { value: 'MSCU1234565', confidence: 0.97, orientation: 'horizontal', label: 'Serial Number' },
        { value: '45G1', confidence: 0.91, orientation: 'horizontal', label: 'Size and Type Codes' },
      ];
    }
    return [{ value: type === 'vin' ? '1M8GDM9AXKP042788' : 'ABC123', confidence: 0.9234, orientation: 'vertical' }];
  }
}

describe('text recognition API', () => {
  let t: TestApp;
  let recognizer: RecordingRecognizer;
  let image: Buffer;
  let receiver: HttpReceiver;
  beforeAll(async () => {
    recognizer = new RecordingRecognizer();
    receiver = await startHttpReceiver();
    t = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000', OUTBOUND_ALLOW: '127.0.0.1' }, { recognizer });
    image = await sceneJpeg(200, 100, 2);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const post = async (url: string, auth: Record<string, string>, fields: Parameters<typeof multipartBody>[0]) => {
    const { payload, headers } = await multipartBody(fields);
    return t.app.inject({ method: 'POST', url, payload, headers: { ...headers, ...auth } });
  };

  it('answers the spec\'s Recognition result for each type, with and without trailing slash', async () => {
    const a = await t.account();
    const res = await post('/v1/ocr/reader', a.auth, { upload: { bytes: image, filename: 'truck.jpg' }, type: 'vin', camera_id: 'lane-2', timestamp: '2024-05-01T12:30:00' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      processing_time: expect.any(Number),
      results: [{ identifier: { type: 'text', props: { code: [{ value: '1M8GDM9AXKP042788' }], orientation: [{ value: 'vertical' }], confidence: 0.923 } } }],
      filename: 'truck.jpg', version: 1, camera_id: 'lane-2', timestamp: '2024-05-01T12:30:00.000Z',
    });
    const container = (await post('/v1/ocr/reader/', a.auth, { upload: { bytes: image }, type: 'shipping_container' })).json();
    expect(container.results).toEqual([
      { identifier: { type: 'text', props: { code: [{ value: 'MSCU1234565' }], confidence: 0.97 }, label: 'Serial Number' } },
      { identifier: { type: 'text', props: { code: [{ value: '45G1' }], confidence: 0.91 }, label: 'Size and Type Codes' } },
    ]);
    expect(container.camera_id).toBeNull();
    expect(container.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const type of ['odometer', 'boat_reg_number']) {
      const r = (await post('/v1/ocr/reader/', a.auth, { upload: { bytes: image }, type })).json();
      expect(r.results[0].identifier.props).not.toHaveProperty('orientation');
    }
  });

  it('accepts an iPhone HEIC photo (HEVC), which it used to refuse as corrupt', async () => {
    const a = await t.account();
    const heic = await readFile(new URL('../../../../test/fixtures/files/blue-128x96.heic', import.meta.url));
    const res = await post('/v1/ocr/reader/', a.auth, { upload: { bytes: heic, filename: 'IMG_0001.HEIC' }, type: 'vin' });
    expect([res.statusCode, res.json().filename]).toEqual([200, 'IMG_0001.HEIC']);
  });

  it('reads base64 in a multipart field, in JSON and urlencoded bodies', async () => {
    const a = await t.account();
    const b64 = image.toString('base64');
    expect((await post('/v1/ocr/reader/', a.auth, { upload: b64, type: 'odometer' })).statusCode).toBe(200);
    const json = await t.app.inject({ method: 'POST', url: '/v1/ocr/reader/', headers: a.auth, payload: { upload: `data:image/jpeg;base64,${b64}`, type: 'odometer' } });
    expect(json.statusCode).toBe(200);
    const form = await t.app.inject({
      method: 'POST', url: '/v1/ocr/reader/', headers: { ...a.auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ upload: b64, type: 'odometer' }).toString(),
    });
    expect(form.statusCode).toBe(200);
  });

  it('fetches upload_url from an allowed host and refuses private addresses with a reason', async () => {
    const a = await t.account();
    receiver.respond(() => ({ headers: { 'content-type': 'image/jpeg' }, body: image }));
    const ok = await post('/v1/ocr/reader/', a.auth, { upload_url: `${receiver.url}/cam/photo.jpg`, type: 'vin' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().filename).toBe('photo.jpg');
    const t2 = await buildTestApp({}, { recognizer });
    try {
      const b = await t2.account();
      for (const url of ['http://127.0.0.1:9/x.jpg', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/a.jpg', 'file:///etc/passwd']) {
        const { payload, headers } = await multipartBody({ upload_url: url, type: 'vin' });
        const res = await t2.app.inject({ method: 'POST', url: '/v1/ocr/reader/', payload, headers: { ...headers, ...b.auth } });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toMatchObject({ status_code: 400, detail: expect.stringMatching(/upload_url/) });
      }
    } finally {
      await t2.close();
    }
  });

  it.each([
    ['no type', { upload: 'IMG' }, /type/],
    ['an unknown type', { upload: 'IMG', type: 'license_plate' }, /Unknown type/],
    ['no image', { type: 'vin' }, /upload/],
    ['invalid base64', { upload: '***not base64***', type: 'vin' }, /base64/],
    ['a non-image', { upload: 'TEXT', type: 'vin' }, /not a readable image/],
    ['a bad timestamp', { upload: 'IMG', type: 'vin', timestamp: '2024-13-45T99:00:00' }, /timestamp/],
  ])('answers 400 {detail, status_code} for %s without counting a call', async (_n, spec, message) => {
    const a = await t.account();
    const fields: Parameters<typeof multipartBody>[0] = {};
    for (const [k, v] of Object.entries(spec)) fields[k] = v === 'IMG' ? { bytes: image } : v === 'TEXT' ? { bytes: Buffer.from('hello') } : v;
    const res = await post('/v1/ocr/reader/', a.auth, fields);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status_code: 400, detail: expect.stringMatching(message) });
    expect((await t.app.inject({ url: '/v1/ocr/statistics/', headers: a.auth })).json().usage.calls).toBe(0);
  });

  it('reads a photo cut short when most of it decodes, and refuses one that decodes to little', async () => {
    const a = await t.account();
    const progressive = await sharp(image).jpeg({ progressive: true }).toBuffer();
    const cut = await post('/v1/ocr/reader/', a.auth, { upload: { bytes: progressive.subarray(0, Math.round(progressive.length * 0.7)) }, type: 'odometer' });
    expect(cut.statusCode, cut.body).toBe(200);
    const stub = await post('/v1/ocr/reader/', a.auth, { upload: { bytes: image.subarray(0, 600) }, type: 'odometer' });
    expect(stub.statusCode).toBe(400);
    expect(stub.json().detail).toMatch(/truncated/);
    expect((await t.app.inject({ url: '/v1/ocr/statistics/', headers: a.auth })).json().usage.calls).toBe(1);
  });

  it('counts calls per family, answers 403 at the quota and reports statistics', async () => {
    const a = await t.account();
    await t.container.usage.setTotalCalls(a.id, 'ocr', 2);
    for (let i = 0; i < 2; i++) expect((await post('/v1/ocr/reader/', a.auth, { upload: { bytes: image }, type: 'vin' })).statusCode).toBe(200);
    const over = await post('/v1/ocr/reader/', a.auth, { upload: { bytes: image }, type: 'vin' });
    expect(over.statusCode).toBe(403);
    expect(over.json().detail).toMatch(/limit reached/);
    expect((await post('/v1/vin/reader/', a.auth, { upload: { bytes: image } })).statusCode).toBe(200); // another family
    const stats = (await t.app.inject({ url: '/v1/ocr/statistics', headers: a.auth })).json();
    const now = new Date();
    expect(stats).toEqual({
      usage: { calls: 2, month: now.getUTCMonth() + 1, year: now.getUTCFullYear(), resets_on: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString() },
      total_calls: 2,
    });
    expect((await t.app.inject({ url: '/v1/vin/statistics/', headers: a.auth })).json().usage.calls).toBe(1);
    expect((await t.app.inject({ url: '/v1/trailer-id/statistics/', headers: a.auth })).json()).toMatchObject({ usage: { calls: 0 }, total_calls: 2500 });
  });

  it('VIN reader is deprecated but works; trailer results carry no confidence', async () => {
    const a = await t.account();
    const vin = await post('/v1/vin/reader/', a.auth, { upload: { bytes: image } });
    expect(vin.headers.deprecation).toBe('true');
    expect(recognizer.calls.at(-1)).toBe('vin');
    const trailer = (await post('/v1/trailer-id/reader/', a.auth, { upload: { bytes: image } })).json();
    expect(recognizer.calls.at(-1)).toBe('trailer_id');
    expect(trailer.results[0].identifier.props).toEqual({ code: [{ value: 'ABC123' }], orientation: [{ value: 'vertical' }] });
  });

  it('answers 401, 403 without the feature, 503 when the engine fails (call refunded)', async () => {
    expect((await post('/v1/ocr/reader/', {}, { upload: { bytes: image }, type: 'vin' })).json()).toMatchObject({ status_code: 401 });
    const noOcr = await t.account(['camera-monitoring']);
    expect((await post('/v1/ocr/reader/', noOcr.auth, { upload: { bytes: image }, type: 'vin' })).statusCode).toBe(403);
    const a = await t.account();
    recognizer.fail = true;
    try {
      const res = await post('/v1/ocr/reader/', a.auth, { upload: { bytes: image }, type: 'vin' });
      expect([res.statusCode, res.json().detail]).toEqual([503, expect.stringMatching(/Prediction service/)]);
    } finally {
      recognizer.fail = false;
    }
    expect((await t.app.inject({ url: '/v1/ocr/statistics/', headers: a.auth })).json().usage.calls).toBe(0);
  });

  it('answers 400 to hostile bodies: JSON nested 5,000 deep, a megabyte-long type (not echoed whole)', async () => {
    const a = await t.account();
    const deep = `{"type":"vin","upload":"${image.toString('base64')}","config":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const url of ['/v1/ocr/reader/', '/v1/plate-reader/']) {
      const res = await t.app.inject({ method: 'POST', url, payload: deep, headers: { ...a.auth, 'content-type': 'application/json' } });
      expect([res.statusCode, res.json().detail], url).toEqual([400, 'A field of the request is nested too deeply.']);
    }
    const huge = 'x'.repeat(1_000_000);
    const res = await post('/v1/ocr/reader/', a.auth, { upload: { bytes: image }, type: huge });
    expect(res.statusCode).toBe(400);
    expect(res.body.length).toBeLessThan(500);
    expect(res.json().detail).toMatch(/^Unknown type "x{40}\u2026"; use one of vin, /);
  });

  it('throttles with 429 and the body plate-reader clients expect', async () => {
    const t2 = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1' }, { recognizer });
    try {
      const a = await t2.account();
      const codes: number[] = [];
      let body;
      for (let i = 0; i < 3; i++) {
        const { payload, headers } = await multipartBody({ upload: { bytes: image }, type: 'vin' });
        const res = await t2.app.inject({ method: 'POST', url: '/v1/ocr/reader/', payload, headers: { ...headers, ...a.auth } });
        codes.push(res.statusCode);
        if (res.statusCode === 429) body = res.json();
      }
      expect(codes).toContain(429);
      expect(body).toMatchObject({ detail: 'Request was throttled. Expected available in 1 second.', status_code: 429 });
    } finally {
      await t2.close();
    }
  });

  it('posts each OCR result to the account\'s webhook with file_url', async () => {
    const a = await t.account();
    receiver.respond(() => ({}));
    const before = receiver.requests.length;
    const hook = await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: a.auth, payload: { url: `${receiver.url}/ocr-hook`, family: 'ocr' } });
    expect(hook.statusCode).toBe(201);
    const res = await post('/v1/ocr/reader/', a.auth, { upload: { bytes: image }, type: 'vin' });
    await t.container.runner.drain();
    const delivered = (await receiver.waitFor(before + 1)).filter((r) => r.url === '/ocr-hook');
    const body = delivered[0]!.json();
    expect(body.hook).toMatchObject({ target: `${receiver.url}/ocr-hook`, id: hook.json().id });
    expect(body.data).toMatchObject({ ...res.json(), processing_time: expect.any(Number), file_url: expect.stringMatching(/^http:\/\/vigil\.test\/v1\/images\//) });
    const img = await t.app.inject({ url: body.data.file_url.replace('http://vigil.test', '') });
    expect(img.rawPayload.equals(image)).toBe(true);
  });
});
