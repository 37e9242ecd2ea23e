import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CameraAnalyzer } from '../../../vision/camera-health/types.js';
import { setAccountPassword } from '../../../services/dashboard/index.js';
import { sceneJpeg } from '../../../../test/fixtures/images.js';
import { multipartBody } from '../../../../test/helpers/multipart.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

const PASSWORD = 'correct horse battery';

/** Blur follows the camera's serial: "BLURRY-…" cameras are in anomaly, the rest are fine. */
let blurry = false;
const analyzer: CameraAnalyzer = {
  async analyze() {
    return { kind: 'scores', scores: { Blur: blurry ? 0.97 : 0.1, Obstruction: 0.05, Glare: 0.02, 'Position change': 0.03 } };
  },
};

interface Stream {
  events: Array<{ event: string; data: any }>;
  ended: Promise<void>;
  next(event: string, timeoutMs?: number): Promise<any>;
  close(): void;
}

/** Reads a server-sent event stream as a browser's EventSource would. */
function openStream(base: string, cookie: string | undefined): Promise<{ status: number; stream: Stream }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/live/events`, { headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) } }, (res) => {
      const events: Stream['events'] = [];
      const taken = new Map<string, number>();
      let buffer = '';
      const waiters = new Set<() => void>();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
        for (const w of waiters) w();
      });
      const ended = new Promise<void>((done) => res.on('close', done));
      resolve({
        status: res.statusCode!,
        stream: {
          events,
          ended,
          next(event, timeoutMs = 10_000) {
            return new Promise((ok, fail) => {
              const check = () => {
                // Each call takes the next event of that name not taken yet.
                const ofName = events.filter((e) => e.event === event);
                const n = taken.get(event) ?? 0;
                if (ofName.length <= n) return;
                taken.set(event, n + 1);
                waiters.delete(check);
                clearTimeout(timer);
                ok(ofName[n]!.data);
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`no ${event} event within ${timeoutMs} ms (got ${events.map((e) => e.event).join(', ')})`));
              }, timeoutMs);
              waiters.add(check);
              check();
            });
          },
          close: () => req.destroy(),
        },
      });
    });
    req.on('error', reject);
  });
}

describe('dashboard live updates (server-sent events)', () => {
  let api: TestApp;
  let worker: TestApp;
  let base: string;
  let scene: Buffer;

  beforeAll(async () => {
    // The API process runs no jobs; a second container on the same database analyses the
    // uploads, as a separate worker process would.
    const env = { CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '100', ALERT_GROUP_WINDOW_SECONDS: '0', JOB_LEASE_SECONDS: '5' };
    // Two connections write one SQLite file here and may find it locked under load: a job that
    // failed is retried at once, one whose bookkeeping failed is taken again after 5 s.
    const retryBackoff = () => 100;
    api = await buildTestApp(env, { analyzer, workers: false, retryBackoff });
    worker = await buildTestApp(env, { analyzer, dataDir: api.dataDir, retryBackoff });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    scene = await sceneJpeg(160, 120, 4);
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  async function user() {
    const a = await api.account();
    await setAccountPassword(api.container.dashboard.sessions, { email: a.email, password: PASSWORD });
    await api.container.licenses.create({ accountId: a.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    const res = await api.app.inject({
      method: 'POST', url: '/login', remoteAddress: `10.3.0.${a.id}`,
      payload: new URLSearchParams({ email: a.email, password: PASSWORD }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(303);
    return { ...a, cookie: String(res.headers['set-cookie']).split(';')[0]! };
  }

  async function upload(auth: Record<string, string>, serial: string) {
    const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: serial });
    const res = await api.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...auth } });
    expect(res.statusCode).toBe(201);
  }

  it('refuses a stream without a session', async () => {
    const { status, stream } = await openStream(base, undefined);
    expect(status).toBe(401);
    stream.close();
  });

  it("streams the account's camera changes and alerts made by another process, and nothing of other accounts", async () => {
    const alice = await user();
    const bob = await user();
    blurry = false;
    await upload(alice.auth, 'GATE-1');
    await upload(bob.auth, 'BOB-CAM');
    await worker.container.runner.drain();

    const a = (await openStream(base, alice.cookie)).stream;
    const b = (await openStream(base, bob.cookie)).stream;
    try {
      // The first event is the grid as it is now.
      const first = await a.next('cameras');
      expect(first.cameras).toHaveLength(1);
      expect(first.cameras[0].status).toBe('normal');
      expect((await b.next('cameras')).cameras).toHaveLength(1);

      blurry = true;
      await upload(alice.auth, 'GATE-1');
      await worker.container.runner.drain();
      const changed = await a.next('cameras');
      expect(changed.cameras[0]).toMatchObject({ status: 'anomaly', label: 'Anomaly' });
      expect(changed.cameras[0].log_id).not.toBe(first.cameras[0].log_id);
      const alert = await a.next('alert');
      expect(alert.cameras).toEqual([expect.objectContaining({ serial: 'GATE-1', status: 'anomaly' })]);

      // Bob's stream said nothing about Alice's camera or alert.
      expect(b.events.map((e) => e.event)).toEqual(['cameras']);
      expect(JSON.stringify(b.events)).not.toContain('GATE-1');
    } finally {
      a.close();
      b.close();
    }
  });

  it('ends open streams when the server shuts down, without holding it up', async () => {
    const extra = await buildTestApp({}, { analyzer, workers: false });
    await extra.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(extra.app.server.address() as AddressInfo).port}`;
    const carol = await extra.account();
    await setAccountPassword(extra.container.dashboard.sessions, { email: carol.email, password: PASSWORD });
    const login = await extra.app.inject({
      method: 'POST', url: '/login', payload: new URLSearchParams({ email: carol.email, password: PASSWORD }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const { stream } = await openStream(url, String(login.headers['set-cookie']).split(';')[0]!);
    await stream.next('cameras');
    const started = Date.now();
    await extra.close();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
