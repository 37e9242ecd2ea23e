import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlateReader, PlateReadResult } from '../../src/vision/plates/plate.types.js';
import { sceneJpeg } from '../fixtures/images.js';
import { MOSQUITTO, OPENSSL, startBroker, subscriber, type Broker } from '../helpers/mosquitto.js';
import { multipartBody } from '../helpers/multipart.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/** A reader that reads the plate the test names next. */
class ScriptedReader implements PlateReader {
  next = '';
  async read(): Promise<PlateReadResult> {
    const plate = this.next;
    return { plates: [{ box: { xmin: 10, ymin: 20, xmax: 90, ymax: 45 }, plate, region: { code: 'us-ca', score: 0.8 }, score: 0.9, candidates: [{ plate, score: 0.9 }], dscore: 0.95, vehicle: undefined }], vehiclesWithoutPlate: [] };
  }
}

const P = '/v1/camera-monitoring';

// Real broker, never a mock: skipped only where Debian's mosquitto is not installed.
describe.skipIf(!MOSQUITTO)('MQTT events', () => {
  let broker: Broker;
  let t: TestApp;
  const reader = new ScriptedReader();
  let photo: Buffer;
  beforeAll(async () => {
    broker = await startBroker();
    t = await buildTestApp(
      { MQTT_URL: broker.url, RECOGNITION_RATE_PER_SECOND: '1000', CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '100', ALERT_GROUP_WINDOW_SECONDS: '0' },
      { plateReader: reader, retryBackoff: () => 50 },
    );
    photo = await sceneJpeg(200, 120, 4);
  });
  afterAll(async () => {
    await t?.close();
    await broker?.close();
  });

  const readPlate = async (auth: Record<string, string>, plate: string, cameraId: string) => {
    reader.next = plate;
    const res = await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', headers: auth, payload: { upload: photo.toString('base64'), camera_id: cameraId } });
    expect(res.statusCode, res.body).toBe(201);
  };

  it('publishes each camera state (retained) with its change, and announces the camera to Home Assistant', async () => {
    const sub = await subscriber(broker, '#');
    const a = await t.account();
    await t.container.licenses.create({ accountId: a.id, size: 2, expiration: new Date(Date.now() + 86_400_000) });
    const scene = await sceneJpeg(640, 480, 3);
    for (const bytes of [scene, await sharp(scene).blur(12).jpeg({ quality: 90 }).toBuffer()]) {
      const { payload, headers } = await multipartBody({ upload: { bytes }, camera_id: 'GATE/1' });
      expect((await t.app.inject({ method: 'POST', url: `${P}/create-log/`, payload, headers: { ...headers, ...a.auth } })).statusCode).toBe(201);
      await t.container.runner.drain();
    }
    // The serial's slash cannot be a topic level of its own.
    const states = await sub.waitFor(new RegExp(`^vigil/${a.id}/cameras/GATE_1/state$`), 2);
    expect(states.map((m) => JSON.parse(m.payload))).toMatchObject([
      { serial: 'GATE/1', status: 'normal', previous_status: null, scores: null },
      { serial: 'GATE/1', status: 'anomaly', previous_status: 'normal', anomalies: { Blur: expect.any(Number) }, scores: { Blur: expect.any(Number), Glare: expect.any(Number) } },
    ]);
    const changes = await sub.waitFor(new RegExp(`^vigil/${a.id}/cameras/GATE_1/changed$`), 2);
    expect(changes.map((m) => JSON.parse(m.payload).status)).toEqual(['normal', 'anomaly']);

    const configs = (await sub.waitFor(/^homeassistant\/sensor\/.*\/config$/, 5)).map((m) => ({ ...m, config: JSON.parse(m.payload) }));
    const status = configs.find((c) => c.config.name === 'Status')!;
    expect(status.retain).toBe(false); // live delivery; the broker keeps it retained (below)
    expect(status.config).toMatchObject({ state_topic: `vigil/${a.id}/cameras/GATE_1/state`, value_template: '{{ value_json.status }}', device: { name: 'GATE/1', manufacturer: 'Vigil' } });
    expect(configs.map((c) => c.config.name).sort()).toEqual(['Blur', 'Glare', 'Obstruction', 'Position change', 'Status']);
    // Announced once per process, not per state.
    expect(configs).toHaveLength(5);
    await sub.close();

    // Home Assistant starting later finds the devices and the last state on the broker.
    const late = await subscriber(broker, '#');
    const retained = await late.waitFor(/^(homeassistant\/sensor\/.*\/config|vigil\/\d+\/cameras\/GATE_1\/state)$/, 6);
    expect(retained.every((m) => m.retain)).toBe(true);
    expect(JSON.parse(retained.find((m) => m.topic.endsWith('/state'))!.payload).status).toBe('anomaly');

    // Silent past CAMERA_OFFLINE_AFTER_SECONDS: the sweep's offline state goes out too.
    expect(await t.container.camera.offline.sweep(Date.now() + 2 * 3600_000)).toBeGreaterThan(0);
    await t.container.runner.drain();
    const offline = (await late.waitFor(new RegExp(`^vigil/${a.id}/cameras/GATE_1/changed$`))).map((m) => JSON.parse(m.payload));
    expect(offline[0]).toMatchObject({ serial: 'GATE/1', status: 'offline', previous_status: 'anomaly', scores: null });
    await late.close();
  });

  it('publishes plate reads, the last plate, visits and watchlist matches', async () => {
    const a = await t.account();
    const sub = await subscriber(broker, `vigil/${a.id}/#`);
    expect((await t.app.inject({ method: 'POST', url: '/v1/watchlists/', headers: a.auth, payload: { name: 'stolen', tag: 'alert', plates: [{ plate: 'bad123' }] } })).statusCode).toBe(201);
    await readPlate(a.auth, 'abc123', 'lane 1');
    await readPlate(a.auth, 'abc123', 'lane 1'); // the same car: one visit
    await readPlate(a.auth, 'bad123', 'lane 1');
    await t.container.runner.drain();

    const reads = await sub.waitFor(/\/plates\/lane 1\/read$/, 3);
    expect(JSON.parse(reads[0]!.payload)).toMatchObject({ camera_id: 'lane 1', results: [{ plate: 'abc123', score: 0.9, region: { code: 'us-ca' } }], file_url: null });
    const [last] = (await sub.waitFor(/\/plates\/lane 1\/last$/, 3)).slice(-1);
    expect(JSON.parse(last!.payload)).toMatchObject({ plate: 'bad123', region: 'us-ca', camera_id: 'lane 1' });
    const visits = await sub.waitFor(/\/visits\/lane 1\/started$/, 2);
    expect(visits.map((m) => JSON.parse(m.payload).plate)).toEqual(['abc123', 'bad123']);
    const [match] = await sub.waitFor(/\/watchlists\/alert\/match$/);
    expect(JSON.parse(match!.payload)).toMatchObject({ watchlist: { name: 'stolen', tag: 'alert' }, result: { plate: 'bad123' }, camera_id: 'lane 1' });
    await sub.close();
  });

  it('keeps the events it accepted while the broker is down and delivers them when it is back', async () => {
    const a = await t.account();
    // A persistent session: the subscription outlives the broker's restart.
    const sub = await subscriber(broker, `vigil/${a.id}/plates/+/read`, { session: `restart-${a.id}` });
    await broker.stop();
    for (let i = 0; i < 5; i++) await readPlate(a.auth, `out${i}`, 'dock');
    await new Promise((r) => setTimeout(r, 500));
    expect(sub.received).toHaveLength(0);
    await broker.start();
    const reads = await sub.waitFor(/\/read$/, 5, 30_000);
    expect(reads.map((m) => JSON.parse(m.payload).results[0].plate).sort()).toEqual(['out0', 'out1', 'out2', 'out3', 'out4']);
    await sub.close();
  });
});

describe.skipIf(!MOSQUITTO || !OPENSSL)('MQTT over TLS with credentials', () => {
  const user = { name: 'vigil', password: 'pa ss:w@rd' };
  let broker: Broker;
  beforeAll(async () => {
    broker = await startBroker({ tls: true, user });
  });
  afterAll(async () => broker?.close());

  it('delivers to a broker whose certificate MQTT_CA_FILE names, logging in with the URL credentials', async () => {
    const url = new URL(broker.url);
    url.username = user.name;
    url.password = user.password;
    const reader = new ScriptedReader();
    reader.next = 'tls123';
    const t = await buildTestApp({ MQTT_URL: url.toString(), MQTT_CA_FILE: broker.caFile, RECOGNITION_RATE_PER_SECOND: '1000' }, { plateReader: reader });
    try {
      const sub = await subscriber(broker, '#', { user });
      const a = await t.account();
      const res = await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', headers: a.auth, payload: { upload: (await sceneJpeg(200, 120, 4)).toString('base64') } });
      expect(res.statusCode).toBe(201);
      const [read] = await sub.waitFor(new RegExp(`^vigil/${a.id}/plates/_/read$`));
      expect(JSON.parse(read!.payload).results[0].plate).toBe('tls123');
      await sub.close();
    } finally {
      await t.close();
    }
  });
});
