import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlateReader, PlateReading, PlateReadResult } from '../../../vision/plates/plate.types.js';
import { sceneJpeg } from '../../../../test/fixtures/images.js';
import { multipartBody } from '../../../../test/helpers/multipart.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

const reading = (plate: string, score: number, x: number): PlateReading => ({
  box: { xmin: x, ymin: 40, xmax: x + 90, ymax: 70 }, plate, region: { code: 'us', score: 0.7 }, score, candidates: [{ plate, score }], dscore: 0.9, vehicle: undefined,
});

/** Two plates read and a third found but not read (a redaction box). */
class TwoPlates implements PlateReader {
  async read(): Promise<PlateReadResult> {
    return { plates: [reading('7abc123', 0.62, 10), reading('xyz987', 0.91, 200), reading('', 0, 300)], vehiclesWithoutPlate: [] };
  }
}

describe('POST /v1/image/alpr (CodeProject.AI)', () => {
  let onprem: TestApp;
  let hosted: TestApp;
  let image: Buffer;
  beforeAll(async () => {
    onprem = await buildTestApp({ VIGIL_PROFILE: 'onprem' }, { plateReader: new TwoPlates() });
    hosted = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000' }, { plateReader: new TwoPlates() });
    image = await sceneJpeg(320, 200, 5);
  });
  afterAll(async () => {
    await onprem.close();
    await hosted.close();
  });

  it('answers frigate_plate_recognizer (files={"upload": image}, no token) in CodeProject.AI\'s shape', async () => {
    // requests names a file sent from bytes after its field: filename="upload".
    const { payload, headers } = await multipartBody({ upload: { bytes: image, filename: 'upload', type: 'application/octet-stream' } });
    const res = await onprem.app.inject({ method: 'POST', url: '/v1/image/alpr', payload, headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, count: 2, message: 'Found Plate: XYZ987, Plate: 7ABC123', moduleId: 'ALPR', command: 'alpr', code: 200, inferenceDevice: 'CPU' });
    // What the client reads: the first prediction's plate and confidence.
    expect(body.predictions).toEqual([
      { confidence: 0.91, label: 'Plate: XYZ987', plate: 'XYZ987', x_min: 200, y_min: 40, x_max: 290, y_max: 70 },
      { confidence: 0.62, label: 'Plate: 7ABC123', plate: '7ABC123', x_min: 10, y_min: 40, x_max: 100, y_max: 70 },
    ]);
    expect(body.processMs).toEqual(expect.any(Number));
    expect(body.inferenceMs).toEqual(expect.any(Number));
    expect(new Date(body.timestampUTC).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('takes the image as "image" (Blue Iris, Home Assistant\'s CodeProject.AI integrations) and honours min_confidence', async () => {
    const { payload, headers } = await multipartBody({ image: { bytes: image, filename: 'frame.jpg' }, min_confidence: '0.7' });
    const body = (await onprem.app.inject({ method: 'POST', url: '/v1/image/alpr', payload, headers })).json();
    expect(body.predictions.map((p: { plate: string }) => p.plate)).toEqual(['XYZ987']);
    const anyName = await multipartBody({ frame: { bytes: image } });
    expect((await onprem.app.inject({ method: 'POST', url: '/v1/image/alpr', ...anyName })).json()).toMatchObject({ success: true, count: 2 });
    const none = await multipartBody({ image: { bytes: image }, min_confidence: '0.95' });
    expect((await onprem.app.inject({ method: 'POST', url: '/v1/image/alpr', ...none })).json()).toMatchObject({ success: true, count: 0, predictions: [], message: 'No plates found' });
  });

  it('refuses bad calls in CodeProject.AI\'s error shape', async () => {
    const noImage = await multipartBody({ min_confidence: '0.5' });
    const res = await onprem.app.inject({ method: 'POST', url: '/v1/image/alpr', ...noImage });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: expect.stringMatching(/No image supplied/), code: 400, reason: 'missing_image' });
    const badConfidence = await multipartBody({ upload: { bytes: image }, min_confidence: '2' });
    expect((await onprem.app.inject({ method: 'POST', url: '/v1/image/alpr', ...badConfidence })).json()).toMatchObject({ success: false, code: 400, error: expect.stringMatching(/min_confidence/) });
    const notImage = await multipartBody({ upload: { bytes: Buffer.from('not an image at all') } });
    expect((await onprem.app.inject({ method: 'POST', url: '/v1/image/alpr', ...notImage })).json()).toMatchObject({ success: false, code: 400 });
  });

  it('needs a token on the hosted profile, and keeps the read in the history like any plate call', async () => {
    const body = await multipartBody({ upload: { bytes: image }, camera_id: 'blue-iris-1' });
    const anonymous = await hosted.app.inject({ method: 'POST', url: '/v1/image/alpr', ...body });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false, code: 401 });
    const a = await hosted.account();
    const res = await hosted.app.inject({ method: 'POST', url: '/v1/image/alpr', payload: body.payload, headers: { ...body.headers, ...a.auth } });
    expect(res.statusCode).toBe(200);
    const reads = (await hosted.app.inject({ url: '/v1/plate-reads/?camera_id=blue-iris-1', headers: a.auth })).json();
    expect(reads.results.map((r: { plate: string }) => r.plate).sort()).toEqual(['7abc123', 'xyz987']);
    const stats = (await hosted.app.inject({ url: '/v1/statistics/', headers: a.auth })).json();
    expect(stats.usage.calls).toBe(1);
  });
});
