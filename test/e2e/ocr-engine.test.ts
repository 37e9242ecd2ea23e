import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textImage } from '../fixtures/text-images.js';
import { multipartBody } from '../helpers/multipart.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/** The OCR endpoint with the real engine on worker threads (no stand-in). */
describe('OCR reader with the real engine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000' });
  });
  afterAll(async () => t.close());

  it('reads a VIN and a container code through the API', async () => {
    const a = await t.account();
    const vin = await textImage([{ text: '1HGCM82633A004352', x: 120, y: 360, size: 64 }]);
    let form = await multipartBody({ upload: { bytes: vin, filename: 'door.jpg' }, type: 'vin' });
    let res = await t.app.inject({ method: 'POST', url: '/v1/ocr/reader/', payload: form.payload, headers: { ...form.headers, ...a.auth } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([{ identifier: { type: 'text', props: { code: [{ value: '1HGCM82633A004352' }], orientation: [{ value: 'horizontal' }], confidence: expect.any(Number) } } }]);

    const box = await textImage([{ text: 'TRHU 170036 9', x: 300, y: 360, size: 90 }]);
    form = await multipartBody({ upload: { bytes: box }, type: 'shipping_container' });
    res = await t.app.inject({ method: 'POST', url: '/v1/ocr/reader/', payload: form.payload, headers: { ...form.headers, ...a.auth } });
    expect(res.json().results).toContainEqual({ identifier: { type: 'text', props: { code: [{ value: 'TRHU1700369' }], confidence: expect.any(Number) }, label: 'Serial Number' } });
  });
});
