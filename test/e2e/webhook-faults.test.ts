import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../helpers/http-receiver.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const TIMEOUT_MS = 600;
const BACKOFF_MS = 300;

/** A raw target: `answer` gets the response once the request body has arrived. */
async function startTarget(answer: (res: http.ServerResponse) => void): Promise<{ url: string; sent: () => number; close(): Promise<void> }> {
  let sent = 0;
  const server = http.createServer((req, res) => {
    const write = res.write.bind(res);
    res.write = ((chunk: Buffer | string, ...rest: never[]) => {
      sent += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    sent: () => sent,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Webhook targets that misbehave: one that never answers, one that trickles its answer, one
 * that answers a huge body. Each attempt ends within WEBHOOK_TIMEOUT_MS, is retried with backoff,
 * other targets keep receiving, and a target that keeps failing is switched off and its owner
 * e-mailed. */
describe('webhook targets that hang, trickle or flood', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let hanging: HttpReceiver;
  let healthy: HttpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    hanging = await startHttpReceiver(() => ({ hang: true }));
    healthy = await startHttpReceiver();
    t = await buildTestApp(
      { OUTBOUND_ALLOW: '127.0.0.1', SMTP_URL: smtp.url, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_DISABLE_AFTER_FAILURES: '3' },
      { retryBackoff: (attempt) => BACKOFF_MS * 2 ** (attempt - 1) },
    );
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([smtp.close(), hanging.close(), healthy.close()]);
  });

  const hook = async (auth: Record<string, string>, url: string): Promise<number> => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: auth, payload: { url, family: 'camera-monitoring' } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  };
  const attempts = (webhookId: number) =>
    t.container.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id').execute();
  const notify = (accountId: number, n: number) => t.container.notifications.webhooks.notify(accountId, 'camera-monitoring', 'alert.created', { n });

  it('times a hanging target out, retries it with backoff, keeps other deliveries flowing, then switches it off and e-mails the owner', async () => {
    const owner = await t.account();
    const hangingId = await hook(owner.auth, `${hanging.url}/never`);
    await hook(owner.auth, `${healthy.url}/owner`);
    const other = await t.account();
    await hook(other.auth, `${healthy.url}/other`);

    const started = Date.now();
    expect(await notify(owner.id, 1)).toBe(2);
    // While the hanging target holds its attempt open, every other delivery goes through.
    for (let i = 0; i < 6; i++) await notify(other.id, i);
    const delivered = await healthy.waitFor(7, 5000);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 3);
    expect(delivered.filter((r) => r.url === '/other')).toHaveLength(6);

    await t.container.runner.drain(20_000, 10_000);
    const tries = await attempts(hangingId);
    expect(tries.map((a) => a.attempt)).toEqual([1, 2, 3]);
    for (const a of tries) {
      expect(a.succeeded).toBe(0);
      expect(a.status_code).toBeNull();
      expect(a.error).toMatch(/did not answer within 600 ms/);
      // Cut at the timeout, not later.
      expect(a.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(a.duration_ms).toBeLessThan(TIMEOUT_MS + 1000);
    }
    // Backoff between attempts: at least 300 ms, then 600 ms, on top of each timeout.
    expect(tries[1]!.created_at - tries[0]!.created_at).toBeGreaterThanOrEqual(TIMEOUT_MS + BACKOFF_MS - 50);
    expect(tries[2]!.created_at - tries[1]!.created_at).toBeGreaterThanOrEqual(TIMEOUT_MS + 2 * BACKOFF_MS - 50);
    expect(hanging.requests).toHaveLength(3);

    const list = (await t.app.inject({ url: '/v1/webhooks/', headers: owner.auth })).json() as Array<{ id: number; active: boolean }>;
    expect(list.find((w) => w.id === hangingId)?.active).toBe(false);
    const mails = await smtp.waitFor(1, 10_000);
    const mail = mails.find((m) => m.subject.includes('webhook deactivated'))!;
    expect(mail.to).toEqual([owner.email]);
    expect(mail.text).toContain(`${hanging.url}/never`);
    // Switched off: the next event does not go there at all.
    await notify(owner.id, 2);
    await t.container.runner.drain(10_000, 10_000);
    expect(hanging.requests).toHaveLength(3);
  }, 40_000);

  it('cuts a target that trickles its answer forever at the timeout', async () => {
    const trickle = await startTarget((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const a = await t.account();
      const id = await hook(a.auth, trickle.url);
      await notify(a.id, 1);
      await t.container.runner.drain(20_000, 10_000);
      const tries = await attempts(id);
      expect(tries.length).toBeGreaterThanOrEqual(1);
      for (const x of tries) {
        expect(x.succeeded).toBe(0);
        expect(x.error).toMatch(/did not answer within 600 ms/);
        expect(x.duration_ms).toBeLessThan(TIMEOUT_MS + 1000);
      }
    } finally {
      await trickle.close();
    }
  }, 30_000);

  it('reads no more than a small cap of a huge answer and stops the sender', async () => {
    const HUGE = 512 * 2 ** 20;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const flood = await startTarget((res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(HUGE) });
      let left = HUGE;
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          left -= chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (left <= 0) res.end();
      };
      pump();
    });
    try {
      const a = await t.account();
      const id = await hook(a.auth, flood.url);
      const rssBefore = process.memoryUsage().rss;
      const started = Date.now();
      await notify(a.id, 1);
      await t.container.runner.drain(20_000, 10_000);
      const [attempt] = await attempts(id);
      // A 2xx is a success; the body was cut, not read to the end.
      expect(attempt).toMatchObject({ succeeded: 1, status_code: 200 });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(flood.sent()).toBeLessThan(64 * 2 ** 20);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 2 ** 20);
    } finally {
      await flood.close();
    }
  }, 30_000);
});
