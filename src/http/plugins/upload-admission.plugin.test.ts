import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noiseImage } from '../../../test/fixtures/images.js';
import { multipartBody } from '../../../test/helpers/multipart.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { PlateReader, PlateReadResult } from '../../vision/plates/plate.types.js';

/** A plate reader that holds every read until `open()`: uploads stay in flight meanwhile. */
class GatedReader implements PlateReader {
  private waiting: Array<() => void> = [];
  started = 0;
  async read(): Promise<PlateReadResult> {
    this.started++;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return { plates: [], vehiclesWithoutPlate: [] };
  }
  open(): void {
    for (const go of this.waiting.splice(0)) go();
  }
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('uploads in flight are bounded (UPLOAD_MEMORY_BYTES)', () => {
  let t: TestApp;
  const reader = new GatedReader();
  let upload: { payload: Buffer; headers: Record<string, string> };
  beforeAll(async () => {
    // Noise does not compress: a JPEG of over 100 KB.
    const noise = noiseImage(400, 300, 3, 7);
    const jpeg = await sharp(noise.data, { raw: noise }).jpeg({ quality: 95 }).toBuffer();
    expect(jpeg.length).toBeGreaterThan(100_000);
    upload = await multipartBody({ upload: { bytes: jpeg, filename: 'car.jpg' } });
    // Room for one such upload, not two.
    t = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000', UPLOAD_MEMORY_BYTES: String(Math.round(upload.payload.length * 1.5)) }, { plateReader: reader });
  });
  afterAll(async () => t.close());

  it('refuses an upload that would not fit beside those in flight with 503 and Retry-After, then lets it in once they are answered', async () => {
    const a = await t.account();
    const post = () => t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload: upload.payload, headers: { ...upload.headers, ...a.auth } });
    const first = post();
    await until(() => reader.started === 1);
    expect(t.app.uploadsInFlight()).toBe(upload.payload.length);
    // Operators see it on /metrics.
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).body).toContain(`vigil_upload_bytes_in_flight ${upload.payload.length}`);

    const refused = await post();
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json().detail).toMatch(/receiving as many uploads as it can hold/);
    expect(reader.started).toBe(1);

    reader.open();
    expect((await first).statusCode).toBe(201);
    expect(t.app.uploadsInFlight()).toBe(0);
    const later = post();
    await until(() => reader.started === 2);
    reader.open();
    expect((await later).statusCode).toBe(201);

    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/vigil_overload_rejections_total\{kind="uploads"\} 1/);
  });

  it('does not count small bodies: settings and forms pass beside a full budget', async () => {
    const a = await t.account();
    const before = reader.started;
    const first = t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload: upload.payload, headers: { ...upload.headers, ...a.auth } });
    await until(() => reader.started === before + 1);
    // A 1x1 PNG as base64 JSON: a few hundred bytes.
    const png = (await sharp({ create: { width: 1, height: 1, channels: 3, background: '#888' } }).png().toBuffer()).toString('base64');
    const small = t.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload: { upload: png }, headers: a.auth });
    await until(() => reader.started === before + 2);
    expect(reader.started).toBe(before + 2);
    reader.open();
    expect((await small).statusCode).toBe(201);
    expect((await first).statusCode).toBe(201);
  });
});
