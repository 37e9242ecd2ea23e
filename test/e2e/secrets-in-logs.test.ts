import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../fixtures/images.js';
import { startHttpReceiver } from '../helpers/http-receiver.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { multipartBody } from '../helpers/multipart.js';
import { exited, freePort, runVigil, startVigil } from '../helpers/processes.js';

/** The real binary at LOG_LEVEL=trace, used the way a customer does (API token, a wrong token,
 * dashboard password, signed image URL, webhook with its signing secret): its whole log output
 * must not contain any of those secrets. */
describe('nothing secret in the logs', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-logs-'));
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('logs requests without tokens, passwords, image signatures, session cookies or webhook secrets', async () => {
    const receiver = await startHttpReceiver();
    const smtp = await startSmtpSink();
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir, SMTP_URL: smtp.url, LOG_LEVEL: 'trace', OUTBOUND_ALLOW: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`,
      CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '100', ALERT_GROUP_WINDOW_SECONDS: '0', WORKER_THREADS: '1',
    };
    const email = 'secrets@example.com';
    const password = 'Pa55word-NeverLogged';
    const wrongPassword = 'Wrong-Pa55word-NeverLogged';
    const cli = async (args: string[]) => {
      const r = await runVigil([...args, '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const { token } = await cli(['accounts', 'create', '--email', email]);
    await cli(['accounts', 'set-password', '--email', email, '--password', password]);
    const license = await cli(['licenses', 'create', '--account', email, '--size', '5']);
    const { secret } = await cli(['webhooks', 'create', '--account', email, '--url', `${receiver.url}/hook`]);
    expect(secret).toMatch(/^whsec_/);

    const server = await startVigil([], env, port);
    const linkMail = async () => {
      for (let i = 0; i < 200; i++) {
        const found = smtp.messages.find((m) => m.text.includes('/login/link?token='));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no sign-in link e-mailed');
    };
    const base = `http://127.0.0.1:${port}`;
    const auth = { authorization: `Token ${token}` };
    const wrongToken = `vgl_${'Q'.repeat(32)}`;
    let sessionCookie = '';
    let imageSignature = '';
    let linkToken = '';
    try {
      expect((await fetch(`${base}/v1/camera-monitoring/licenses/`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${base}/v1/camera-monitoring/licenses/`, { headers: { authorization: `Token ${wrongToken}` } })).status).toBe(401);
      // A reference and a blurred frame: an alert, delivered signed with the secret.
      const scene = await sceneJpeg(320, 240, 6);
      for (const bytes of [scene, await sharp(scene).blur(12).jpeg().toBuffer()]) {
        const form = await multipartBody({ upload: { bytes }, camera_id: 'LOG-CAM' });
        const res = await fetch(`${base}/v1/camera-monitoring/create-log/`, { method: 'POST', body: form.payload, headers: { ...form.headers, ...auth } });
        expect(res.status).toBe(201);
      }
      const [delivery] = await receiver.waitFor(1, 30_000);
      const deliverySignature = String(delivery!.headers['x-vigil-signature']);
      const logs = (await (await fetch(`${base}/v1/camera-monitoring/${license.id}/cameras/LOG-CAM/logs/`, { headers: auth })).json()) as Array<{ snapshot: string }>;
      const snapshot = new URL(logs[0]!.snapshot);
      imageSignature = snapshot.searchParams.get('signature')!;
      expect((await fetch(`${base}${snapshot.pathname}${snapshot.search}`)).status).toBe(200);

      const form = (pw: string) => ({ method: 'POST', redirect: 'manual' as const, body: new URLSearchParams({ email, password: pw }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect((await fetch(`${base}/login`, form(wrongPassword))).status).toBeLessThan(500);
      const signedIn = await fetch(`${base}/login`, form(password));
      expect(signedIn.status).toBe(303);
      sessionCookie = /vigil_session=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')![1]!;
      expect((await fetch(`${base}/`, { headers: { cookie: `vigil_session=${sessionCookie}` } })).status).toBe(200);
      // An e-mailed sign-in link carries its one-time token in the URL.
      const asked = await fetch(`${base}/login/link`, { method: 'POST', body: new URLSearchParams({ email }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(asked.status).toBe(200);
      const mail = await linkMail();
      linkToken = /\/login\/link\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
      expect((await fetch(`${base}/login/link?token=${linkToken}`)).status).toBe(200);

      server.kill('SIGTERM');
      expect(await exited(server)).toBe(0);
      const output = server.output();
      // The log did record these requests (so the test looks at real log lines).
      expect(output).toContain('/v1/camera-monitoring/licenses/');
      expect(output).toContain('signature=[redacted]');
      expect(output).toContain('"url":"/login"');
      for (const [what, value] of Object.entries({ token, wrongToken, password, wrongPassword, secret, imageSignature, sessionCookie, deliverySignature, linkToken })) {
        expect(value.length, what).toBeGreaterThan(8);
        const line = output.split('\n').find((l) => l.includes(value));
        expect(line, `${what} appears in the log`).toBeUndefined();
      }
      // Only the signature part of a delivery header is secret-derived; check its hex too.
      expect(output.includes(deliverySignature.replace(/^sha256=/, ''))).toBe(false);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
      await receiver.close();
      await smtp.close();
    }
  }, 90_000);
});
