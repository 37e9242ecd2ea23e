import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAccountPassword } from '../../src/services/dashboard/index.js';
import type { PlateReader } from '../../src/services/recognition/plate-reader.port.js';
import type { TextRecognizer } from '../../src/services/recognition/text-recognizer.port.js';
import { sceneJpeg } from '../fixtures/images.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/http-receiver.js';
import { freePort, REPO_ROOT } from '../helpers/processes.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');
const PASSWORD = 'a long dashboard password';

// The readers are stand-ins here (their own suites run the models); camera analysis is real.
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
const recognizer: TextRecognizer = { async read() { return [{ value: '1HGCM82633A004352', confidence: 0.97, orientation: 'horizontal' }]; } };

/** Sign in, watch a camera turn from normal to anomaly without reloading, open it, set a
 * reference, read alerts, tokens, webhooks and a recognition result, in headless Chromium. */
describe.skipIf(!fs.existsSync(CHROMIUM))('dashboard in a browser', () => {
  let t: TestApp;
  let receiver: HttpReceiver;
  let browser: Browser;
  let page: Page;
  let base: string;
  let account: Awaited<ReturnType<TestApp['account']>>;
  let licenseId: number;
  let scene: Buffer;
  /** Script errors and CSP violations the pages caused. */
  const problems: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    receiver = await startHttpReceiver();
    receiver.respond((req) => (req.url.startsWith('/broken') ? { status: 500, body: 'receiver is down' } : { status: 200 }));
    t = await buildTestApp(
      {
        PUBLIC_URL: base, CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '100', ALERT_GROUP_WINDOW_SECONDS: '0',
        OUTBOUND_ALLOW: '127.0.0.1', WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_DISABLE_AFTER_FAILURES: '1',
      },
      { plateReader, recognizer },
    );
    await t.app.listen({ port, host: '127.0.0.1' });
    account = await t.account();
    await setAccountPassword(t.container, { email: account.email, password: PASSWORD });
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
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`${msg.text()} ${msg.location().url}`); });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
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
    await shot('cameras');
  });

  it('turns the camera from normal to anomaly after a blurred upload, without a reload', async () => {
    const marker = await page.evaluate('window.marker = Math.random()');
    await upload('GATE-1', await sharp(scene).blur(12).jpeg({ quality: 90 }).toBuffer(), 'north');
    const card = page.locator('.card', { hasText: 'GATE-1' });
    await expect.poll(() => card.getAttribute('class'), { timeout: 45_000, interval: 500 }).toContain('status-anomaly');
    await expect.poll(() => card.locator('[data-role="status"]').textContent()).toBe('Anomaly');
    expect(await card.locator('.scores .over').count()).toBeGreaterThan(0);
    // Same document: the live update repainted it.
    expect(await page.evaluate('window.marker')).toBe(marker);
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

  it('is readable on a phone', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(`${base}/`);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot('cameras-phone', phone);
    await phone.goto(`${base}/cameras/${licenseId}/GATE-1`);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot('camera-phone', phone);
    await phone.close();
  });

  it('ran without script errors or content security policy violations', () => {
    expect(problems).toEqual([]);
  });
});
