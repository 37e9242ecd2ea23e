import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAccountPassword } from '../../src/services/dashboard/index.js';
import type { PlateReader } from '../../src/vision/plates/plate.types.js';
import { sceneJpeg } from '../fixtures/images.js';
import { textImage } from '../fixtures/text-images.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/http-receiver.js';
import { freePort, REPO_ROOT } from '../helpers/processes.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');
const PASSWORD = 'a long dashboard password';

// The plate reader is a stand-in here (its own suite runs the models); camera analysis and OCR are real.
const plateReader: PlateReader = {
  async read() {
    return {
      plates: [{
        box: { xmin: 60, ymin: 150, xmax: 200, ymax: 190 }, plate: 'ab123cd', region: { code: 'fr', score: 0.9 }, score: 0.93,
        candidates: [{ plate: 'ab123cd', score: 0.93 }], dscore: 0.88, vehicle: undefined,
      }],
      vehiclesWithoutPlate: [],
    };
  },
};
/** Runs in the page (the test project has no DOM types, hence the narrow cast): every matching
 * image finished loading with real pixels. A function, not a string: the pages' CSP forbids eval. */
type PageImages = { document: { querySelectorAll(selector: string): ArrayLike<{ complete: boolean; naturalWidth: number }> } };
const imagesLoaded = (selector: string) =>
  Array.from((globalThis as unknown as PageImages).document.querySelectorAll(selector)).every((i) => i.complete && i.naturalWidth > 0);

/** Sign in (password, then an e-mailed link), watch a camera turn from normal to anomaly without
 * reloading, open it, set a reference, read alerts, tokens, webhooks, a plate and a real OCR
 * read, in headless Chromium. Screenshots of every page land in test-artifacts/. */
describe.skipIf(!fs.existsSync(CHROMIUM))('dashboard in a browser', () => {
  let t: TestApp;
  let receiver: HttpReceiver;
  let smtp: SmtpSink;
  let browser: Browser;
  let page: Page;
  let base: string;
  let account: Awaited<ReturnType<TestApp['account']>>;
  let licenseId: number;
  let scene: Buffer;
  /** Script errors and CSP violations the pages caused. */
  const problems: string[] = [];
  /** Paths the signed-in page requested (to tell server-sent events from polling). */
  const requested: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    receiver = await startHttpReceiver();
    smtp = await startSmtpSink();
    receiver.respond((req) => (req.url.startsWith('/broken') ? { status: 500, body: 'receiver is down' } : { status: 200 }));
    t = await buildTestApp(
      {
        PUBLIC_URL: base, CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '100', ALERT_GROUP_WINDOW_SECONDS: '0',
        OUTBOUND_ALLOW: '127.0.0.1', WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_DISABLE_AFTER_FAILURES: '1', SMTP_URL: smtp.url,
      },
      { plateReader },
    );
    await t.app.listen({ port, host: '127.0.0.1' });
    account = await t.account();
    await setAccountPassword(t.container.dashboard.sessions, { email: account.email, password: PASSWORD });
    // One receiver that answers and one that fails (and is switched off after one failure).
    await t.container.notifications.webhooks.create(account.id, { url: `${receiver.url}/ok`, family: 'camera-monitoring' });
    await t.container.notifications.webhooks.create(account.id, { url: `${receiver.url}/broken`, family: 'camera-monitoring' });
    licenseId = (await t.container.licenses.create({ accountId: account.id, size: 4, expiration: new Date(Date.now() + 365 * 86_400_000) })).id;
    scene = await sceneJpeg(640, 480, 3);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(page);
    page.on('request', (req) => requested.push(new URL(req.url()).pathname));
  }, 120_000);

  function watch(p: Page) {
    p.on('pageerror', (err) => problems.push(err.message));
    p.on('console', (msg) => { if (msg.type() === 'error') problems.push(`${msg.text()} ${msg.location().url}`); });
  }

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  /** Uploads through the public API with the account's token, as a camera would. */
  async function upload(serial: string, bytes: Buffer, tag: string) {
    const form = new FormData();
    form.append('upload', new Blob([bytes], { type: 'image/jpeg' }), 'snap.jpg');
    form.append('camera_id', serial);
    form.append('tag', tag);
    const res = await fetch(`${base}/v1/camera-monitoring/create-log/`, { method: 'POST', body: form, headers: { authorization: `Token ${account.token}` } });
    expect(res.status).toBe(201);
  }

  async function shot(name: string, p: Page = page) {
    await p.screenshot({ path: path.join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
  }

  it('signs in and shows the cameras of the license', async () => {
    await upload('GATE-1', scene, 'north');
    await upload('DOCK-2', await sceneJpeg(640, 480, 7), 'south');
    await t.container.runner.drain();

    await page.goto(`${base}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await shot('login');
    await page.fill('input[name="email"]', account.email);
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(`${base}/`), page.click('button[type="submit"]')]);
    const card = page.locator('.card', { hasText: 'GATE-1' });
    await expect.poll(() => card.getAttribute('class')).toContain('status-normal');
    await page.waitForFunction(imagesLoaded, '.card img');
    // Small thumbnails, not the 640 px uploads.
    expect(await card.locator('img').getAttribute('src')).toMatch(/^\/thumbnails\/[\w-]+$/);
    expect(await card.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(320);
    await shot('cameras');
  });

  it('signs in with a link sent by e-mail', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    watch(p);
    await p.goto(`${base}/login`);
    await p.fill('#link input[name="email"]', account.email);
    await p.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await expect.poll(() => p.locator('.notice').textContent()).toContain('a sign-in link is on its way');
    await shot('login-link-sent', p);

    const [mail] = await smtp.waitFor(1);
    const link = /http:\/\/\S+\/login\/link\?token=[\w-]+/.exec(mail!.text)?.[0];
    expect(link).toBeDefined();
    await p.goto(link!);
    await shot('login-link', p);
    await Promise.all([p.waitForURL(`${base}/`), p.getByRole('button', { name: 'Continue to the dashboard' }).click()]);
    expect(await p.locator('.who').textContent()).toBe(account.email);
    expect(await p.locator('.card').count()).toBe(2);

    // The link worked once: opening it again signs nobody in.
    await context.clearCookies();
    await p.goto(link!);
    await p.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await expect.poll(() => p.locator('.error').textContent()).toContain('already used');
    await context.close();
    // That refusal is a 400 page, which Chromium logs as a failed load: expected here, not a fault.
    const refused = problems.findIndex((m) => /status of 400 .*\/login\/link\/use$/.test(m));
    expect(refused).toBeGreaterThanOrEqual(0);
    problems.splice(refused, 1);
  });

  it('turns the camera from normal to anomaly after a blurred upload, without a reload', async () => {
    const marker = await page.evaluate('window.marker = Math.random()');
    await upload('GATE-1', await sharp(scene).blur(12).jpeg({ quality: 90 }).toBuffer(), 'north');
    const card = page.locator('.card', { hasText: 'GATE-1' });
    await expect.poll(() => card.getAttribute('class'), { timeout: 45_000, interval: 500 }).toContain('status-anomaly');
    await expect.poll(() => card.locator('[data-role="status"]').textContent()).toBe('Anomaly');
    expect(await card.locator('.scores .over').count()).toBeGreaterThan(0);
    // Same document: the live update repainted it, pushed by server-sent events (no polling).
    expect(await page.evaluate('window.marker')).toBe(marker);
    expect(requested).toContain('/live/events');
    expect(requested).not.toContain('/live/cameras');
    // The alert it raised is announced on the page too.
    await expect.poll(() => page.locator('.live-alert').textContent(), { timeout: 15_000 }).toContain('GATE-1 (Anomaly)');
    await page.waitForFunction(imagesLoaded, '.card img');
    await page.waitForTimeout(1600); // let the highlight fade
    await shot('cameras-anomaly');
  });

  it('opens the camera page and sets a past snapshot as the reference', async () => {
    await Promise.all([page.waitForURL(/\/cameras\/\d+\/GATE-1$/), page.locator('.card', { hasText: 'GATE-1' }).locator('.title a').click()]);
    await expect.poll(() => page.locator('h1 .badge').textContent()).toBe('Anomaly');
    expect(await page.locator('svg polyline[data-series="Blur"]').count()).toBe(1);
    expect(await page.locator('.timeline > li').count()).toBe(2);
    await page.waitForFunction(imagesLoaded, '.shot img');
    await shot('camera');

    const before = (await t.container.camera.cameras.requireBySerial(account.id, 'GATE-1')).reference_image_id;
    // The newest snapshot (the blurred one) becomes the reference: the view was refocused.
    await Promise.all([page.waitForURL(/saved=reference/), page.locator('.timeline > li').first().getByRole('button', { name: 'Use as reference' }).click()]);
    expect(await page.locator('.notice').textContent()).toContain('Reference image updated');
    const after = (await t.container.camera.cameras.requireBySerial(account.id, 'GATE-1')).reference_image_id;
    expect(after).not.toBe(before);
    expect(await page.locator('.timeline > li').first().locator('.tag', { hasText: 'reference' }).count()).toBe(1);
    await shot('camera-reference');
  });

  it('lists the alert with the camera involved, sent by webhook', async () => {
    await receiver.waitFor(2);
    await t.container.runner.drain();
    await page.goto(`${base}/alerts`);
    const alert = page.locator('.alert').first();
    expect(await alert.textContent()).toContain('GATE-1');
    expect(await alert.locator('.badge', { hasText: 'Anomaly' }).count()).toBe(1);
    expect(await alert.locator('.badge', { hasText: 'sent' }).textContent()).toBe('sent');
    expect(await alert.locator('img.mini').first().getAttribute('src')).toMatch(/^\/thumbnails\//);
    await page.waitForFunction(imagesLoaded, 'img');
    await shot('alerts');
  });

  it('creates a token shown once, adds a webhook, reads a plate with its box drawn', async () => {
    await page.goto(`${base}/tokens`);
    await page.getByRole('button', { name: 'Create a token' }).click();
    const token = await page.locator('code.token').textContent();
    expect(token).toMatch(/^vgl_/);
    await shot('tokens');
    await page.goto(`${base}/tokens`);
    expect(await page.content()).not.toContain(token!);

    await page.goto(`${base}/webhooks`);
    const broken = page.locator('.webhook', { hasText: '/broken' });
    expect(await broken.locator('.badge').textContent()).toBe('deactivated');
    expect(await broken.locator('tr.failed').textContent()).toContain('500');
    expect(await page.locator('.webhook', { hasText: '/ok' }).locator('tbody tr').first().textContent()).toMatch(/camera\.alert.*200.*\d+ ms/s);
    await shot('webhooks');
    await broken.getByRole('button', { name: 'Enable again' }).click();
    expect(await page.locator('.notice').textContent()).toContain('enabled again');
    expect(await page.locator('.webhook', { hasText: '/broken' }).locator('.badge').textContent()).toBe('active');
    // A test event goes to that one target and shows up in its deliveries.
    await page.locator('.webhook', { hasText: '/ok' }).getByRole('button', { name: 'Send a test event' }).click();
    expect(await page.locator('.notice').textContent()).toContain('Test event queued');
    const [, , test] = await receiver.waitFor(3);
    expect(test!.url).toBe('/ok');
    expect(test!.headers['x-vigil-event']).toBe('webhook.test');
    await t.container.runner.drain();
    await page.reload();
    expect(await page.locator('.webhook', { hasText: '/ok' }).locator('tbody tr').first().textContent()).toMatch(/webhook\.test.*200/s);
    await page.fill('input[name="url"]', 'https://example.com/vigil-hook');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    expect(await page.locator('code.token').textContent()).toMatch(/^whsec_/);
    expect(await page.locator('.webhook .url').first().textContent()).toBe('https://example.com/vigil-hook');

    await page.goto(`${base}/recognition`);
    await page.selectOption('select[name="kind"]', 'plate');
    await page.setInputFiles('input[name="upload"]', { name: 'car.jpg', mimeType: 'image/jpeg', buffer: await sceneJpeg(320, 240, 9) });
    await page.getByRole('button', { name: 'Read' }).click();
    expect(await page.locator('.readings').textContent()).toContain('AB123CD');
    expect(await page.locator('.overlay rect.box').count()).toBe(1);
    expect(await page.locator('tr', { hasText: 'plate-reader' }).textContent()).toContain('1');
    await shot('recognition');
  });

  it('reads a VIN with the real OCR engine and draws its box', async () => {
    await page.goto(`${base}/recognition`);
    await page.selectOption('select[name="kind"]', 'vin');
    const door = await textImage([{ text: '1HGCM82633A004352', x: 120, y: 360, size: 64 }]);
    await page.setInputFiles('input[name="upload"]', { name: 'door.jpg', mimeType: 'image/jpeg', buffer: door });
    await Promise.all([page.waitForURL(`${base}/recognition`), page.getByRole('button', { name: 'Read' }).click()]);
    expect(await page.locator('.readings code').textContent({ timeout: 60_000 })).toBe('1HGCM82633A004352');
    const box = page.locator('.overlay rect.box');
    expect(await box.count()).toBe(1);
    // The box sits on the rendered line: left edge near x=120, baseline at y=360, 64 px type.
    const [x, y, w, h] = (await Promise.all(['x', 'y', 'width', 'height'].map(async (a) => Number(await box.getAttribute(a))))) as [number, number, number, number];
    expect(x).toBeGreaterThan(90);
    expect(x).toBeLessThan(150);
    expect(y).toBeGreaterThan(270);
    expect(y).toBeLessThan(330);
    expect(x + w).toBeGreaterThan(650);
    expect(y + h).toBeGreaterThan(345);
    expect(y + h).toBeLessThan(400);
    expect(await page.locator('.overlay text.box-label').textContent()).toBe('1HGCM82633A004352');
    expect(await page.locator('tr', { hasText: /^ocr/ }).first().textContent()).toMatch(/ocr\s*1/);
    await shot('recognition-ocr');
  }, 90_000);

  it('finds the plate read in the history, with its photo, fuzzy too, and opens its visit', async () => {
    // The recognition page's read is in the history; two more of the car at another camera, the
    // second with its photo kept.
    const photo = await sceneJpeg(320, 240, 9);
    const stored = await t.container.images.store(account.id, photo, `accounts/${account.id}/plates`);
    const reading = { box: { xmin: 60, ymin: 150, xmax: 200, ymax: 190 }, plate: 'ab123cd', region: { code: 'fr', score: 0.9 }, score: 0.97, candidates: [], dscore: 0.9, vehicle: undefined };
    await t.container.plateHistory.record(account.id, { cameraId: 'LANE-2', readAt: Date.now() - 10_000 }, [{ ...reading, score: 0.8 }], undefined);
    await t.container.plateHistory.record(account.id, { cameraId: 'LANE-2', readAt: Date.now() }, [reading], stored.id);
    await page.goto(`${base}/plates`);
    expect(await page.locator('table.reads tbody tr').count()).toBe(3);
    await page.waitForFunction(imagesLoaded, 'table.reads img');
    expect(await page.locator('table.reads img').count()).toBe(1);
    await shot('plates');
    await page.fill('input[name="plate"]', 'AB-128-CD');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.locator('table.reads tbody tr').count()).toBe(0);
    await page.check('input[name="fuzzy"]');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.locator('table.reads tbody tr').count()).toBe(3);
    await page.locator('table.reads a', { hasText: 'visit' }).first().click();
    expect(await page.locator('h1').textContent()).toBe('Visit of AB123CD');
    expect(await page.locator('main p').first().textContent()).toMatch(/LANE-2 .* 2 reads · best score 0\.97/);
    await shot('plate-visit');

    // A watchlist made on its page marks the plate on the Plates page.
    await page.getByRole('link', { name: 'Watchlists' }).click();
    await page.fill('input[name="name"]', 'stolen');
    await page.selectOption('select[name="tag"]', 'alert');
    await page.fill('form[action="/watchlists/create"] textarea[name="plates"]', 'AB-123-CD, reported 3 Nov');
    await page.getByRole('button', { name: 'Create watchlist' }).click();
    expect(await page.locator('.notice').textContent()).toContain('Watchlist created');
    expect(await page.locator('.watchlist textarea').inputValue()).toBe('AB123CD, reported 3 Nov');
    await shot('watchlists');
    await page.goto(`${base}/plates`);
    expect(await page.locator('table.reads .tag.watch-alert').count()).toBe(3);

    // A read arriving while the page is open is announced without a reload.
    await page.waitForTimeout(500);
    await t.container.plateHistory.record(account.id, { cameraId: 'LANE-3', readAt: Date.now() }, [{ ...reading, plate: 'gh456jk' }], undefined);
    await page.locator('.live-plates').waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Show them' }).click();
    expect(await page.locator('table.reads td.plate').first().textContent()).toBe('GH456JK');
  });

  it('is readable on a phone', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(`${base}/`);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot('cameras-phone', phone);
    await phone.goto(`${base}/cameras/${licenseId}/GATE-1`);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot('camera-phone', phone);
    for (const [path, name] of [['/alerts', 'alerts-phone'], ['/webhooks', 'webhooks-phone'], ['/recognition', 'recognition-phone'], ['/tokens', 'tokens-phone'], ['/plates', 'plates-phone'], ['/watchlists', 'watchlists-phone']] as const) {
      await phone.goto(`${base}${path}`);
      expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await shot(name, phone);
    }
    await phone.close();
  });

  it('ran without script errors or content security policy violations', () => {
    expect(problems).toEqual([]);
  });
});
