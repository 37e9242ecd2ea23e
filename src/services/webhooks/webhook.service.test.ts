import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../../../test/helpers/http-receiver.js';
import { startSmtpSink, type SmtpSink } from '../../../test/helpers/smtp-sink.js';
import { solidJpeg } from '../../../test/fixtures/images.js';
import { loadConfig, type Env } from '../../config/config.js';
import type { JobHandlers } from '../../queue/jobs.js';
import { SqlJobQueue, SqlJobRunner } from '../../queue/sql-job-queue.js';
import { FsBlobStore } from '../../storage/blobs/fs-blob-store.js';
import { migrateToLatest, openDatabase, type Db } from '../../storage/db/database.js';
import { AccountRepository } from '../../storage/repositories/account.repository.js';
import { ImageRepository } from '../../storage/repositories/image.repository.js';
import { WebhookRepository } from '../../storage/repositories/webhook.repository.js';
import { VERSION } from '../../version.js';
import { AppError } from '../errors.js';
import { ImageService } from '../images.service.js';
import { createNotifications, type Notifications } from '../../wiring/notifications.js';
import type { DeliveryRef } from '../notifications/ports.js';

interface Harness {
  db: Db;
  n: Notifications;
  runner: SqlJobRunner;
  accounts: AccountRepository;
  images: ImageService;
  delivered: DeliveryRef[];
  /** Runs every job that is due now. */
  drain(): Promise<void>;
  /** Makes the retries the runner scheduled (with backoff) due now, then runs them. */
  retryNow(): Promise<void>;
  close(): Promise<void>;
}

let accountCounter = 0;

/** A private database, queue and runner per test: the real app's runner never interferes. */
async function harness(env: Partial<Record<keyof Env, string>>): Promise<Harness> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-webhooks-'));
  const config = loadConfig({}, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', OUTBOUND_ALLOW: '127.0.0.1', ...env });
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  const accounts = new AccountRepository(db);
  const images = new ImageService(new ImageRepository(db), new FsBlobStore(path.join(dataDir, 'blobs')), {
    publicUrl: 'http://vigil.test', secret: 's'.repeat(32), ttlSeconds: 3600, maxPixels: 1e8,
  });
  const delivered: DeliveryRef[] = [];
  const queue = new SqlJobQueue(db);
  const n = createNotifications({ config, db, queue, images, accounts, onDelivered: async (ref) => void delivered.push(ref) });
  const unused = { run: async () => { throw new Error('not in this test'); } };
  const handlers: JobHandlers = { 'camera.analyze': unused, 'alert.dispatch': unused, ...n.handlers };
  const runner = new SqlJobRunner(db, queue, handlers, { concurrency: 1, pollMs: 10 });
  runner.start();
  return {
    db, n, runner, accounts, images, delivered,
    drain: () => runner.drain(15_000),
    async retryNow() {
      await db.updateTable('jobs').set({ run_at: 0 }).where('status', '=', 'queued').execute();
      await runner.drain(15_000);
    },
    async close() {
      await runner.stop();
      n.close();
      await db.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

const newAccount = (h: Harness) => h.accounts.create(`owner${++accountCounter}-${process.pid}@example.com`, ['camera-monitoring', 'ocr', 'plate-reader']);

function expectSigned(req: { headers: Record<string, unknown>; body: Buffer }, secret: string) {
  const timestamp = String(req.headers['x-vigil-timestamp']);
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(req.body).digest('hex');
  expect(req.headers['x-vigil-signature']).toBe(`sha256=${expected}`);
}

describe('webhook delivery', () => {
  let rx: HttpReceiver;
  let smtp: SmtpSink;
  let h: Harness;

  beforeAll(async () => {
    rx = await startHttpReceiver();
    smtp = await startSmtpSink();
  });
  afterAll(async () => {
    await rx.close();
    await smtp.close();
  });
  beforeEach(async () => {
    rx.requests.length = 0;
    rx.respond(() => ({}));
    smtp.messages.length = 0;
    h = await harness({ SMTP_URL: smtp.url, WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_MAX_ATTEMPTS: '6' });
  });
  afterEach(async () => h.close());

  it('posts a camera-monitoring alert as is, JSON, signed, and marks the ref delivered', async () => {
    const owner = await newAccount(h);
    const { webhook, secret } = await h.n.webhooks.create(owner.id, { url: `${rx.url}/hooks/cam?x=1`, family: 'camera-monitoring' });
    const alert = { license: 'VA-7KQ2M-X9D3P', user: owner.email, anomaly: 'Offline', cameras: [{ serial: 'cam-1', name: 'Gate', anomaly: 'Offline', tags: [], reference_image: null, latest_image: null }] };
    expect(await h.n.webhooks.notify(owner.id, 'camera-monitoring', 'alert.created', alert, { ref: { kind: 'alert', id: 42 } })).toBe(1);
    await h.drain();

    const [req] = await rx.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/hooks/cam?x=1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['user-agent']).toBe(`Vigil/${VERSION}`);
    expect(req!.headers['x-vigil-event']).toBe('alert.created');
    expect(req!.headers['x-vigil-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(req!.json()).toEqual(alert);
    expectSigned(req!, secret);
    expect(h.delivered).toEqual([{ kind: 'alert', id: 42 }]);

    const rows = await h.n.webhooks.deliveries(owner.id, webhook.id);
    expect(rows).toMatchObject([{ event: 'alert.created', attempt: 1, status_code: 200, succeeded: 1, error: null }]);
  });

  it('wraps OCR results in the hook envelope and sends them to every active OCR target only', async () => {
    const owner = await newAccount(h);
    const a = await h.n.webhooks.create(owner.id, { url: `${rx.url}/a`, family: 'ocr' });
    const b = await h.n.webhooks.create(owner.id, { url: `${rx.url}/b`, family: 'ocr' });
    await h.n.webhooks.create(owner.id, { url: `${rx.url}/camera`, family: 'camera-monitoring' });
    const result = { processing_time: 120, results: [], file_url: 'http://vigil.test/v1/images/x', version: 1 };
    expect(await h.n.webhooks.notify(owner.id, 'ocr', 'image.done', result)).toBe(2);
    await h.drain();

    const reqs = await rx.waitFor(2);
    expect(reqs.map((r) => r.url).sort()).toEqual(['/a', '/b']);
    const byUrl = Object.fromEntries(reqs.map((r) => [r.url, r]));
    expect(byUrl['/a']!.json()).toEqual({ hook: { target: `${rx.url}/a`, id: a.webhook.id, event: 'image.done' }, data: result });
    expect(byUrl['/b']!.json().hook.id).toBe(b.webhook.id);
    expectSigned(byUrl['/a']!, a.secret);
    expectSigned(byUrl['/b']!, b.secret);
    // Each target has its own delivery id.
    expect(byUrl['/a']!.headers['x-vigil-delivery']).not.toBe(byUrl['/b']!.headers['x-vigil-delivery']);
  });

  it('sends plate results as multipart with a json field and the image as upload, signature over the raw form', async () => {
    const owner = await newAccount(h);
    const { webhook, secret } = await h.n.webhooks.create(owner.id, { url: `${rx.url}/plates`, family: 'plate-reader', format: 'multipart' });
    const jpeg = await solidJpeg(32, 24);
    const image = await h.images.store(owner.id, jpeg, 'plates');
    const reading = { results: [{ plate: 'abc123', score: 0.9 }], filename: 'car.jpg' };
    await h.n.webhooks.notify(owner.id, 'plate-reader', 'image.done', reading, { imageId: image.id });
    await h.drain();

    const [req] = await rx.waitFor(1);
    expect(req!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await req!.form();
    expect(JSON.parse(String(form.get('json')))).toEqual({ hook: { target: `${rx.url}/plates`, id: webhook.id, event: 'image.done' }, data: reading });
    const upload = form.get('upload') as File;
    expect(upload.type).toBe('image/jpeg');
    // Named after the delivery, so a receiver that saves images by name keeps each one.
    expect(upload.name).toBe(`${req!.headers['x-vigil-delivery']}.jpg`);
    expect(Buffer.from(await upload.arrayBuffer()).equals(jpeg)).toBe(true);
    expectSigned(req!, secret);
    await h.n.webhooks.notify(owner.id, 'plate-reader', 'image.done', reading, { imageId: image.id });
    await h.drain();
    const [, second] = await rx.waitFor(2);
    expect(((await second!.form()).get('upload') as File).name).not.toBe(upload.name);
  });

  it('retries a failing target with backoff until it answers 2xx, with one row per attempt and a stable delivery id', async () => {
    const owner = await newAccount(h);
    const { webhook } = await h.n.webhooks.create(owner.id, { url: `${rx.url}/flaky`, family: 'camera-monitoring' });
    rx.respond((_req, i) => (i < 2 ? { status: 500, body: 'boom' } : { status: 204 }));
    await h.n.webhooks.notify(owner.id, 'camera-monitoring', 'alert.created', { n: 1 }, { ref: { kind: 'alert', id: 7 } });

    await h.drain();
    const queued = await h.db.selectFrom('jobs').selectAll().where('kind', '=', 'webhook.deliver').executeTakeFirstOrThrow();
    expect(queued.status).toBe('queued');
    expect(queued.max_attempts).toBe(6);
    expect(queued.run_at).toBeGreaterThan(Date.now() + 1000); // backoff, not an immediate retry
    expect(queued.last_error).toContain('answered 500: boom');
    expect(h.delivered).toEqual([]);

    await h.retryNow();
    await h.retryNow();
    const reqs = await rx.waitFor(3);
    expect(new Set(reqs.map((r) => r.headers['x-vigil-delivery'])).size).toBe(1);
    expect(h.delivered).toEqual([{ kind: 'alert', id: 7 }]);
    const rows = await h.n.webhooks.deliveries(owner.id, webhook.id);
    expect(rows.map((r) => [r.attempt, r.status_code, r.succeeded])).toEqual([[3, 204, 1], [2, 500, 0], [1, 500, 0]]);
    expect((await h.n.webhooks.get(owner.id, webhook.id)).consecutive_failures).toBe(0);
    const done = await h.db.selectFrom('jobs').select('status').where('id', '=', queued.id).executeTakeFirstOrThrow();
    expect(done.status).toBe('done');
  });

  it('deactivates a target after N consecutive failures, e-mails the owner once, and drops the remaining jobs', async () => {
    const owner = await newAccount(h);
    const { webhook } = await h.n.webhooks.create(owner.id, { url: `${rx.url}/down`, family: 'ocr' });
    rx.respond(() => ({ status: 503, body: 'maintenance' }));
    // Two events in flight: their failures add up on the one target.
    await h.n.webhooks.notify(owner.id, 'ocr', 'image.done', { n: 1 });
    await h.n.webhooks.notify(owner.id, 'ocr', 'image.done', { n: 2 });
    await h.drain(); // attempts 1 of both: 2 failures
    expect((await h.n.webhooks.get(owner.id, webhook.id)).active).toBe(1);
    await h.retryNow(); // third failure switches it off; the other job finds it off and stops
    await h.retryNow();

    const hook = await h.n.webhooks.get(owner.id, webhook.id);
    expect(hook.active).toBe(0);
    expect(hook.disabled_at).toEqual(expect.any(Number));
    expect(rx.requests).toHaveLength(3);
    const jobs = await h.db.selectFrom('jobs').select(['kind', 'status']).where('kind', '=', 'webhook.deliver').execute();
    expect(jobs.every((j) => j.status === 'done')).toBe(true);

    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual([owner.email]);
    expect(mail!.from).toBe('vigil@localhost');
    expect(mail!.subject).toBe(`Vigil webhook deactivated: ${rx.url}/down`);
    expect(mail!.text).toContain('failed 3 times in a row');
    expect(mail!.text).toContain('The target answered 503: maintenance.');
    expect(mail!.text).toContain(`/v1/webhooks/${webhook.id}/enable/`);
    expect(smtp.messages).toHaveLength(1);

    // Off: no more jobs; enabled again: delivered again.
    expect(await h.n.webhooks.notify(owner.id, 'ocr', 'image.done', { n: 3 })).toBe(0);
    rx.respond(() => ({}));
    const enabled = await h.n.webhooks.enable(owner.id, webhook.id);
    expect(enabled).toMatchObject({ active: 1, consecutive_failures: 0, disabled_at: null });
    expect(await h.n.webhooks.notify(owner.id, 'ocr', 'image.done', { n: 4 })).toBe(1);
    await h.drain();
    expect(rx.requests).toHaveLength(4);
    expect(smtp.messages).toHaveLength(1);
  });

  it('drops a job quietly when its target was deleted meanwhile', async () => {
    const owner = await newAccount(h);
    const { webhook } = await h.n.webhooks.create(owner.id, { url: `${rx.url}/gone`, family: 'ocr' });
    await h.runner.stop();
    await h.n.webhooks.notify(owner.id, 'ocr', 'image.done', {});
    await h.n.webhooks.remove(owner.id, webhook.id);
    h.runner.start();
    await h.drain();
    expect(rx.requests).toHaveLength(0);
    const job = await h.db.selectFrom('jobs').select('status').where('kind', '=', 'webhook.deliver').executeTakeFirstOrThrow();
    expect(job.status).toBe('done');
  });

  it('refuses at delivery time a target that is not allowed, recording why', async () => {
    const owner = await newAccount(h);
    // Written around the API's check, as a row from an older version or a changed allow-list would be.
    const row = await new WebhookRepository(h.db).create({ accountId: owner.id, family: 'ocr', url: 'http://10.0.0.1/hook', secret: 'k' });
    await h.n.webhooks.notify(owner.id, 'ocr', 'image.done', {});
    await h.drain();
    const [attempt] = await h.n.webhooks.deliveries(owner.id, row.id);
    expect(attempt).toMatchObject({ succeeded: 0, status_code: null });
    expect(attempt!.error).toContain('10.0.0.1 is a private network address');
  });

  it('records a redirect as a failure instead of following it', async () => {
    const owner = await newAccount(h);
    const { webhook } = await h.n.webhooks.create(owner.id, { url: `${rx.url}/moved`, family: 'ocr' });
    rx.respond(() => ({ status: 301, headers: { location: 'https://elsewhere.example/' } }));
    await h.n.webhooks.notify(owner.id, 'ocr', 'image.done', {});
    await h.drain();
    const [attempt] = await h.n.webhooks.deliveries(owner.id, webhook.id);
    expect(attempt!.error).toContain('answered 301');
    expect(rx.requests).toHaveLength(1);
  });
});

describe('webhook management', () => {
  let h: Harness;
  beforeAll(async () => { h = await harness({}); });
  afterAll(async () => h.close());

  async function appError(p: Promise<unknown>): Promise<AppError> {
    const err = await p.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }

  it('creates with a one-time secret, lists newest first, and hides other accounts\' webhooks as 404', async () => {
    const me = await newAccount(h);
    const other = await newAccount(h);
    const first = await h.n.webhooks.create(me.id, { url: 'https://hooks.example.com/one' });
    const second = await h.n.webhooks.create(me.id, { url: 'https://hooks.example.com/two', family: 'ocr' });
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(first.webhook).toMatchObject({ family: 'camera-monitoring', active: 1, url: 'https://hooks.example.com/one' });
    expect((await h.n.webhooks.list(me.id)).map((w) => w.id)).toEqual([second.webhook.id, first.webhook.id]);
    expect(await h.n.webhooks.list(other.id)).toEqual([]);

    for (const call of [
      h.n.webhooks.get(other.id, first.webhook.id),
      h.n.webhooks.remove(other.id, first.webhook.id),
      h.n.webhooks.enable(other.id, first.webhook.id),
      h.n.webhooks.deliveries(other.id, first.webhook.id),
      h.n.webhooks.get(me.id, 999_999),
    ]) {
      const err = await appError(call);
      expect(err.status).toBe(404);
      expect(err.code).toBe('webhook_not_found');
    }
    await h.n.webhooks.remove(me.id, first.webhook.id);
    expect((await h.n.webhooks.list(me.id)).map((w) => w.id)).toEqual([second.webhook.id]);
  });

  it('refuses forbidden and malformed URLs, unknown families and duplicates', async () => {
    const me = await newAccount(h);
    for (const url of ['http://10.1.1.1:9/x', 'http://localhost/', 'http://169.254.169.254/', 'http://[::1]/', 'ftp://example.com/', 'nope']) {
      const err = await appError(h.n.webhooks.create(me.id, { url }));
      expect(err.status).toBe(400);
      expect(err.code).toBe('invalid_webhook_url');
    }
    expect((await appError(h.n.webhooks.create(me.id, { url: 'https://x.example/', family: 'email' }))).code).toBe('invalid_webhook_family');
    await h.n.webhooks.create(me.id, { url: 'https://x.example/' });
    expect((await appError(h.n.webhooks.create(me.id, { url: 'https://x.example/' }))).status).toBe(409);
  });

  it('creates for an account named by e-mail (CLI)', async () => {
    const me = await newAccount(h);
    const created = await h.n.webhooks.createForEmail(me.email.toUpperCase(), { url: 'https://cli.example/', family: 'plate-reader' });
    expect(created.webhook).toMatchObject({ account_id: me.id, family: 'plate-reader' });
    expect((await appError(h.n.webhooks.createForEmail('nobody@example.com', { url: 'https://cli.example/' }))).status).toBe(404);
  });
});

describe('mail', () => {
  let smtp: SmtpSink;
  beforeAll(async () => { smtp = await startSmtpSink(); });
  afterAll(async () => smtp.close());

  it('sends queued mail through SMTP, retries a refused message, then marks the ref delivered', async () => {
    const h = await harness({ SMTP_URL: smtp.url, MAIL_FROM: 'Vigil Alerts <alerts@vigil.test>' });
    try {
      expect(h.n.mail.enabled).toBe(true);
      smtp.failNext(1);
      expect(await h.n.mail.enqueue({ to: 'ops@example.com', subject: 'Caméra hors ligne', text: 'Gate camera is offline.\nSee the dashboard.' }, { kind: 'alert', id: 3 })).toBe(true);
      await h.drain();
      const job = await h.db.selectFrom('jobs').selectAll().where('kind', '=', 'mail.send').executeTakeFirstOrThrow();
      expect(job.status).toBe('queued');
      expect(job.last_error).toContain('Try again later');
      expect(h.delivered).toEqual([]);

      await h.retryNow();
      const [mail] = await smtp.waitFor(1);
      expect(mail).toMatchObject({ from: 'alerts@vigil.test', to: ['ops@example.com'], subject: 'Caméra hors ligne', text: 'Gate camera is offline.\nSee the dashboard.' });
      expect(h.delivered).toEqual([{ kind: 'alert', id: 3 }]);
    } finally {
      await h.close();
    }
  });

  it('is disabled without SMTP_URL: nothing is queued', async () => {
    const h = await harness({});
    try {
      expect(h.n.mail.enabled).toBe(false);
      expect(await h.n.mail.enqueue({ to: 'ops@example.com', subject: 's', text: 't' })).toBe(false);
      expect(await h.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
