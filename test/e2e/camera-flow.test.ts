import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CameraAnalyzer } from '../../src/vision/camera-health/types.js';
import { sceneJpeg } from '../fixtures/images.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/http-receiver.js';
import { multipartBody } from '../helpers/multipart.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const P = '/v1/camera-monitoring';

/** Upload → analysis on worker threads → log → alert → webhook and e-mail, all real. */
describe('camera monitoring end to end', () => {
  let receiver: HttpReceiver;
  let smtp: SmtpSink;
  let t: TestApp;
  let scene: Buffer;
  let blurred: Buffer;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    smtp = await startSmtpSink();
    t = await buildTestApp({
      OUTBOUND_ALLOW: '127.0.0.1', SMTP_URL: smtp.url, ALERT_GROUP_WINDOW_SECONDS: '0',
      CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '100',
    });
    scene = await sceneJpeg(640, 480, 3);
    blurred = await sharp(scene).blur(12).jpeg({ quality: 90 }).toBuffer();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await smtp.close();
  });

  async function upload(auth: Record<string, string>, serial: string, bytes: Buffer) {
    const { payload, headers } = await multipartBody({ upload: { bytes }, camera_id: serial, tag: 'yard' });
    const res = await t.app.inject({ method: 'POST', url: `${P}/create-log/`, payload, headers: { ...headers, ...auth } });
    expect(res.statusCode).toBe(201);
    await t.container.runner.drain();
  }

  it('turns a blurred upload into an anomaly log and an alert delivered by webhook and e-mail', async () => {
    const a = await t.account();
    const license = await t.container.licenses.create({ accountId: a.id, size: 2, expiration: new Date(Date.now() + 86_400_000) });
    const hook = await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: a.auth, payload: { url: `${receiver.url}/hook`, family: 'camera-monitoring' } });
    expect(hook.statusCode).toBe(201);

    await upload(a.auth, 'GATE-1', scene); // first upload: becomes the reference
    await upload(a.auth, 'GATE-1', blurred);

    const logs = (await t.app.inject({ url: `${P}/${license.id}/cameras/GATE-1/logs/`, headers: a.auth })).json();
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ camera_serial: 'GATE-1', camera_name: 'GATE-1', status: 'anomaly', anomalies: { Blur: expect.any(Number) } });
    expect(logs[0].snapshot).toMatch(/^http:\/\/vigil\.test\/v1\/images\//);
    expect(logs[1]).toMatchObject({ status: 'normal', anomalies: {} });
    expect((await t.app.inject({ url: `${P}/${license.id}/cameras/?status=anomaly`, headers: a.auth })).json()).toHaveLength(1);

    const [delivery] = await receiver.waitFor(1);
    const body = delivery!.json();
    expect(body).toMatchObject({
      license: license.code, user: a.email, anomaly: 'Anomaly',
      cameras: [{ serial: 'GATE-1', name: 'GATE-1', anomaly: 'Anomaly', tags: ['yard'], reference_image: expect.stringMatching(/^http/), latest_image: expect.any(String) }],
    });
    // The same image (signed URLs differ only in their expiry, which depends on when they were made).
    expect(body.cameras[0].latest_image.split('?')[0]).toBe(logs[0].snapshot.split('?')[0]);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual([a.email]);
    expect(mail!.subject).toMatch(/GATE-1.*Anomaly/);
    await t.container.runner.drain();

    const alerts = (await t.app.inject({ url: `${P}/${license.id}/alerts/`, headers: a.auth })).json();
    expect(alerts).toEqual([
      expect.objectContaining({ license: license.code, sent: true, cameras: [expect.objectContaining({ serial: 'GATE-1', status: 'Anomaly', anomalies: { Blur: expect.any(Number) } })] }),
    ]);
    expect((await t.app.inject({ url: `${P}/${license.id}/alerts/?sent=false`, headers: a.auth })).json()).toEqual([]);
    expect((await t.app.inject({ url: `${P}/${license.id}/alerts/?license=${license.code}`, headers: a.auth })).json()).toHaveLength(1);
    expect((await t.app.inject({ url: `${P}/${license.id}/alerts/?license=OTHER`, headers: a.auth })).json()).toEqual([]);

    // Back to normal: a recovery alert.
    await upload(a.auth, 'GATE-1', scene);
    const after = (await t.app.inject({ url: `${P}/${license.id}/alerts/`, headers: a.auth })).json();
    expect(after.map((x: { cameras: Array<{ status: string }> }) => x.cameras[0]!.status)).toEqual(['Normal', 'Anomaly']);

    const today = new Date().toISOString().slice(0, 10);
    expect((await t.app.inject({ url: `${P}/${license.id}/cameras/GATE-1/logs/?start=${today}&end=${today}`, headers: a.auth })).json()).toHaveLength(3);
    expect((await t.app.inject({ url: `${P}/${license.id}/cameras/GATE-1/logs/?end=2000-01-01`, headers: a.auth })).json()).toEqual([]);
    expect((await t.app.inject({ url: `${P}/${license.id}/cameras/GATE-1/logs/?status=anomaly`, headers: a.auth })).json()).toHaveLength(1);
  });

  it('marks a camera offline after silence and raises an offline alert', async () => {
    const a = await t.account();
    const license = await t.container.licenses.create({ accountId: a.id, size: 2, expiration: new Date(Date.now() + 86_400_000) });
    await upload(a.auth, 'SILENT', scene);
    const marked = await t.container.camera.offline.sweep(Date.now() + 2 * 3600_000);
    expect(marked).toBeGreaterThanOrEqual(1);
    expect(await t.container.camera.offline.sweep(Date.now() + 3 * 3600_000)).toBe(0); // already offline
    await t.container.runner.drain();
    const cams = (await t.app.inject({ url: `${P}/${license.id}/cameras/`, headers: a.auth })).json();
    expect(cams[0].latest_status).toBe('offline');
    const logs = (await t.app.inject({ url: `${P}/${license.id}/cameras/SILENT/logs/?status=offline`, headers: a.auth })).json();
    expect(logs).toEqual([expect.objectContaining({ status: 'offline', snapshot: null, anomalies: {} })]);
    const alerts = (await t.app.inject({ url: `${P}/${license.id}/alerts/`, headers: a.auth })).json();
    expect(alerts[0].cameras[0]).toMatchObject({ serial: 'SILENT', status: 'Offline', snapshot: null });
  });

  it('holds a first obstruction for review and confirms it on the next upload', async () => {
    const a = await t.account();
    const license = await t.container.licenses.create({ accountId: a.id, size: 2, expiration: new Date(Date.now() + 86_400_000) });
    const bag = await sharp({ create: { width: 380, height: 480, channels: 3, background: '#101010' } }).png().toBuffer();
    const covered = await sharp(scene).composite([{ input: bag, left: 0, top: 0 }]).jpeg().toBuffer();
    await upload(a.auth, 'DOCK', scene);
    await upload(a.auth, 'DOCK', covered);
    await upload(a.auth, 'DOCK', covered);
    const logs = (await t.app.inject({ url: `${P}/${license.id}/cameras/DOCK/logs/`, headers: a.auth })).json();
    expect(logs.map((l: { status: string }) => l.status)).toEqual(['anomaly', 'under_review', 'normal']);
    expect(logs[0].anomalies).toEqual({ Obstruction: expect.any(Number) });
  });

  it('gives config_issue to an image that cannot be compared with the reference', async () => {
    const a = await t.account();
    const license = await t.container.licenses.create({ accountId: a.id, size: 2, expiration: new Date(Date.now() + 86_400_000) });
    await upload(a.auth, 'WIDE', scene);
    await upload(a.auth, 'WIDE', await sceneJpeg(40, 30, 3));
    const logs = (await t.app.inject({ url: `${P}/${license.id}/cameras/WIDE/logs/`, headers: a.auth })).json();
    expect(logs[0].status).toBe('config_issue');
  });
});

describe('durability of analysis jobs', () => {
  it('loses no job across a restart in the middle of the queue', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-restart-'));
    const env = { CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000' };
    const first = await buildTestApp(env, { dataDir, workers: false });
    const a = await first.account();
    const license = await first.container.licenses.create({ accountId: a.id, size: 10, expiration: new Date(Date.now() + 86_400_000) });
    const scene = await sceneJpeg(320, 240, 5);
    for (const serial of ['A', 'B', 'C', 'D']) {
      const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: serial });
      expect((await first.app.inject({ method: 'POST', url: `${P}/create-log/`, payload, headers: { ...headers, ...a.auth } })).statusCode).toBe(201);
    }
    // A worker that claimed a job and died: the job is still marked running with a lease.
    const job = await first.container.db.selectFrom('jobs').select('id').where('kind', '=', 'camera.analyze').orderBy('id').executeTakeFirstOrThrow();
    await first.container.db.updateTable('jobs').set({ status: 'running', attempts: 1, locked_until: Date.now() - 1, locked_by: 'dead' }).where('id', '=', job.id).execute();
    await first.close();

    const second = await buildTestApp(env, { dataDir });
    try {
      await second.container.runner.drain();
      const cams = (await second.app.inject({ url: `${P}/${license.id}/cameras/`, headers: a.auth })).json();
      expect(cams.map((c: { latest_status: string }) => c.latest_status)).toEqual(['normal', 'normal', 'normal', 'normal']);
      const logs = await second.container.db.selectFrom('camera_logs').select('id').execute();
      expect(logs).toHaveLength(4);
    } finally {
      await second.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('shows pending_retry while a failed analysis waits for its retry, then the result', async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const flaky: CameraAnalyzer = {
      async analyze() {
        calls++;
        if (calls === 1) throw new Error('model crashed');
        await gate;
        return { kind: 'scores', scores: { Blur: 0, Obstruction: 0, Glare: 0, 'Position change': 0 } };
      },
    };
    const t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000' }, { analyzer: flaky, retryBackoff: () => 50 });
    try {
      const a = await t.account();
      const license = await t.container.licenses.create({ accountId: a.id, size: 1, expiration: new Date(Date.now() + 86_400_000) });
      const scene = await sceneJpeg(320, 240, 9);
      for (let i = 0; i < 2; i++) {
        const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: 'FLAKY' });
        expect((await t.app.inject({ method: 'POST', url: `${P}/create-log/`, payload, headers: { ...headers, ...a.auth } })).statusCode).toBe(201);
        if (i === 0) await t.container.runner.drain();
      }
      const logsUrl = `${P}/${license.id}/cameras/FLAKY/logs/`;
      let pending: Array<{ status: string }> = [];
      for (let i = 0; i < 100 && !pending.some((l) => l.status === 'pending_retry'); i++) {
        pending = (await t.app.inject({ url: logsUrl, headers: a.auth })).json();
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(pending[0]!.status).toBe('pending_retry');
      release();
      await t.container.runner.drain(30_000, 1000); // include the retry scheduled 50 ms ahead
      const done = (await t.app.inject({ url: logsUrl, headers: a.auth })).json();
      expect(done.map((l: { status: string }) => l.status)).toEqual(['normal', 'normal']);
    } finally {
      await t.close();
    }
  });
});
