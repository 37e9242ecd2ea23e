import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plateSceneJpeg } from '../fixtures/plate-images.js';
import { multipartBody } from '../helpers/multipart.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/** The requests of docs/integrations/, as each client builds them, read by the real plate
 * pipeline: what the recipe promises is what the client gets. */
describe('integration recipes', () => {
  let onprem: TestApp;
  let hosted: TestApp;
  let car: Buffer;
  beforeAll(async () => {
    onprem = await buildTestApp({ VIGIL_PROFILE: 'onprem' });
    hosted = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000' });
    car = (await plateSceneJpeg({ text: 'ABC1234' })).jpeg;
  }, 120_000);
  afterAll(async () => {
    await onprem?.close();
    await hosted?.close();
  });

  it('Home Assistant (HASS-plate-recognizer) against the on-premise profile', async () => {
    // requests.post(server, data=dict(regions=[...], camera_id=name, mmc=True, config=json.dumps({})),
    //               files={"upload": image}, headers={"Authorization": f"Token {api_token}"})
    const { payload, headers } = await multipartBody({
      regions: ['us-ca', 'mx'], camera_id: 'platerecognizer_driveway', mmc: 'True', config: '{}',
      upload: { bytes: car, filename: 'upload', type: 'application/octet-stream' },
    });
    const res = await onprem.app.inject({ method: 'POST', url: '/v1/plate-reader/', payload, headers: { ...headers, authorization: 'Token anything' } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const [r] = body.results;
    // What the integration reads from each result, and the usage it shows.
    expect(r.plate).toBe('abc1234');
    expect(r).toMatchObject({ score: expect.any(Number), region: { code: expect.any(String) }, vehicle: { type: expect.any(String) } });
    expect(r.candidates.map((c: { plate: string }) => c.plate)).toContain('abc1234');
    expect(r.box.xmax).toBeGreaterThan(r.box.xmin);
    expect(body.usage).toEqual({ calls: 1, max_calls: 0 });
    expect(body.camera_id).toBe('platerecognizer_driveway');
  }, 60_000);

  it('Frigate (frigate_plate_recognizer), plate_recognizer mode against the hosted profile', async () => {
    const a = await hosted.account();
    // session.post(api_url, data=dict(regions=["us-ca"]), files={"upload": image}, headers={"Authorization": f"Token {token}"})
    const { payload, headers } = await multipartBody({ regions: ['us-ca'], upload: { bytes: car, filename: 'upload', type: 'application/octet-stream' } });
    const res = await hosted.app.inject({ method: 'POST', url: '/v1/plate-reader', payload, headers: { ...headers, ...a.auth } });
    expect(res.statusCode, res.body).toBe(201);
    const [top] = res.json().results;
    expect(top).toMatchObject({ plate: 'abc1234', score: expect.any(Number) });
  }, 60_000);

  it('Frigate code_project mode and Blue Iris against /v1/image/alpr on the on-premise profile', async () => {
    for (const field of ['upload', 'image']) {
      const { payload, headers } = await multipartBody({ [field]: { bytes: car, filename: field === 'upload' ? 'upload' : 'alert.jpg' } });
      const res = await onprem.app.inject({ method: 'POST', url: '/v1/image/alpr', payload, headers });
      expect(res.statusCode, res.body).toBe(200);
      const [top] = res.json().predictions;
      expect(top).toMatchObject({ plate: 'ABC1234', label: 'Plate: ABC1234', confidence: expect.any(Number) });
      expect(top.x_max).toBeGreaterThan(top.x_min);
    }
  }, 60_000);
});
