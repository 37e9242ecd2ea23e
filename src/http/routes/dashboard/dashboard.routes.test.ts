import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CameraAnalyzer } from '../../../vision/camera-health/types.js';
import { GRID_LIMIT } from '../../../services/dashboard/dashboard.service.js';
import { setAccountPassword } from '../../../services/dashboard/index.js';
import { CameraRepository } from '../../../storage/repositories/camera.repository.js';
import type { PlateReader, PlateReadOptions } from '../../../vision/plates/plate.types.js';
import type { TextRecognizer } from '../../../vision/ocr/ocr.types.js';
import { sceneJpeg } from '../../../../test/fixtures/images.js';
import { multipartBody } from '../../../../test/helpers/multipart.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

const PASSWORD = 'correct horse battery';

/** Fixed low scores: these tests are about the pages, the browser test runs the real analysis. */
const analyzer: CameraAnalyzer = {
  async analyze() {
    return { kind: 'scores', scores: { Blur: 0.1, Obstruction: 0.05, Glare: 0.02, 'Position change': 0.03 } };
  },
};

const recognizer: TextRecognizer = { async read() { return [{ value: '1HGCM82633A004352', confidence: 0.97, orientation: 'horizontal', box: { xmin: 30, ymin: 40, xmax: 290, ymax: 70 } }]; } };
/** The options of the plate reader's last call. */
let lastPlateOptions: PlateReadOptions | undefined;
const plateReader: PlateReader = {
  async read(_image, options) {
    lastPlateOptions = options;
    return {
      plates: [{ box: { xmin: 10, ymin: 20, xmax: 110, ymax: 50 }, plate: '<b>x</b>', region: { code: 'fr', score: 0.9 }, score: 0.9, candidates: [], dscore: 0.8, vehicle: undefined }],
      vehiclesWithoutPlate: [],
    };
  },
};

describe('dashboard', () => {
  let t: TestApp;
  let scene: Buffer;

  beforeAll(async () => {
    t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '100' }, { analyzer, recognizer, plateReader });
    scene = await sceneJpeg(320, 240, 5);
  });
  afterAll(async () => t.close());

  async function user() {
    const a = await t.account();
    await setAccountPassword(t.container.dashboard.sessions, { email: a.email, password: PASSWORD });
    const license = await t.container.licenses.create({ accountId: a.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    return { ...a, license };
  }

  // Sign-ins are throttled per client address too: each test user comes from its own address.
  const addresses = new Map<string, string>();
  const addressOf = (email: string) => addresses.get(email.toLowerCase()) ?? addresses.set(email.toLowerCase(), `10.0.0.${addresses.size + 1}`).get(email.toLowerCase())!;

  async function signIn(email: string, password = PASSWORD) {
    return t.app.inject({
      method: 'POST', url: '/login', remoteAddress: addressOf(email),
      payload: new URLSearchParams({ email, password, next: '/alerts' }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  async function session(email: string) {
    const res = await signIn(email);
    expect(res.statusCode).toBe(303);
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const page = await t.app.inject({ url: '/tokens', headers: { cookie } });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const post = (url: string, fields: Record<string, string> = {}, extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString(), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...extra } });
    return { cookie, csrf, post, get: (url: string) => t.app.inject({ url, headers: { cookie } }) };
  }

  async function upload(auth: Record<string, string>, serial: string, tag = 'yard') {
    const { payload, headers } = await multipartBody({ upload: { bytes: scene }, camera_id: serial, tag });
    const res = await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...auth } });
    expect(res.statusCode).toBe(201);
    await t.container.runner.drain();
  }

  it('sends visitors without a session to the sign-in page', async () => {
    const res = await t.app.inject({ url: '/cameras/1/X?y=1' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login?next=%2Fcameras%2F1%2FX%3Fy%3D1');
    const login = await t.app.inject({ url: '/login' });
    expect(login.statusCode).toBe(200);
    expect(login.headers['content-security-policy']).toContain("script-src 'self'");
    expect(login.body).toContain('<form method="post" action="/login"');
    expect((await t.app.inject({ url: '/live/cameras' })).statusCode).toBe(401);
    // The API is unchanged, and the pages stay out of the OpenAPI document.
    expect((await t.app.inject({ url: '/v1/camera-monitoring/licenses/' })).statusCode).toBe(401);
    // (Outside /v1/ the document holds only the operations endpoints.)
    expect(Object.keys((await t.app.inject({ url: '/openapi.json' })).json().paths).filter((p) => !p.startsWith('/v1/')).sort()).toEqual(['/healthz', '/metrics', '/readyz']);
    // Static files are served by Vigil itself, revalidated by ETag.
    const css = await t.app.inject({ url: '/assets/dashboard.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await t.app.inject({ url: '/assets/dashboard.css', headers: { 'if-none-match': String(css.headers.etag) } })).statusCode).toBe(304);
    expect((await t.app.inject({ url: '/assets/dashboard.js' })).body).toContain('data-live');
  });

  it('signs in with e-mail and password into an HttpOnly, SameSite=Lax session cookie', async () => {
    const u = await user();
    const wrong = await signIn(u.email, 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Wrong e-mail or password.');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const unknown = await signIn('nobody@example.com');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain('Wrong e-mail or password.');

    const ok = await signIn(u.email.toUpperCase());
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/alerts');
    const cookie = String(ok.headers['set-cookie']);
    expect(cookie).toMatch(/^vigil_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    // Only the token's hash is stored.
    const rows = await t.container.db.selectFrom('sessions').selectAll().where('account_id', '=', u.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toMatch(/^[0-9a-f]{64}$/);
    expect(cookie).not.toContain(rows[0]!.id);

    const page = await t.app.inject({ url: '/', headers: { cookie: cookie.split(';')[0]! } });
    expect(page.statusCode).toBe(200);
    // A sign-in form posted from another site is refused (login CSRF).
    const foreign = await t.app.inject({ method: 'POST', url: '/login', payload: new URLSearchParams({ email: u.email, password: PASSWORD }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    // Only same-site paths are followed after signing in.
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const res = await t.app.inject({ method: 'POST', url: '/login', remoteAddress: '10.9.9.9', payload: new URLSearchParams({ email: u.email, password: PASSWORD, next }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.headers.location).toBe('/');
    }
    expect(page.body).toContain(u.license.code);
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('marks the cookie Secure behind an https PUBLIC_URL', async () => {
    const https = await buildTestApp({ PUBLIC_URL: 'https://vigil.example' }, { analyzer, workers: false });
    try {
      const { account } = await https.container.accounts.create('secure@example.com');
      await setAccountPassword(https.container.dashboard.sessions, { email: account.email, password: PASSWORD });
      const res = await https.app.inject({ method: 'POST', url: '/login', payload: new URLSearchParams({ email: account.email, password: PASSWORD }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.statusCode).toBe(303);
      expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/);
    } finally {
      await https.close();
    }
  });

  it('throttles repeated sign-in attempts', async () => {
    const u = await user();
    // The limiter counts in one-minute windows: a loaded machine could cross into the next one
    // mid-test, so the clock stands still at a window's start.
    vi.useFakeTimers({ toFake: ['Date'], now: Math.ceil(Date.now() / 60_000) * 60_000 });
    try {
      const codes = [];
      for (let i = 0; i < 7; i++) codes.push((await signIn(u.email, `wrong-${i}`)).statusCode);
      expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(codes.slice(5)).toEqual([429, 429]);
      const res = await signIn(u.email);
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses state-changing forms without the session CSRF token or from another origin', async () => {
    const u = await user();
    const s = await session(u.email);
    const form = { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' };
    const missing = await t.app.inject({ method: 'POST', url: '/tokens/create', payload: '', headers: form });
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toContain('Reload the page');
    const wrong = await t.app.inject({ method: 'POST', url: '/tokens/create', payload: `_csrf=${'x'.repeat(s.csrf.length)}`, headers: form });
    expect(wrong.statusCode).toBe(403);
    expect((await s.post('/tokens/create', {}, { origin: 'https://evil.example' })).statusCode).toBe(403);
    // Another session's token does not work either.
    const other = await session(u.email);
    const crossed = await t.app.inject({ method: 'POST', url: '/tokens/create', payload: `_csrf=${other.csrf}`, headers: form });
    expect(crossed.statusCode).toBe(403);
    expect((await t.container.db.selectFrom('api_tokens').select('id').where('account_id', '=', u.id).execute())).toHaveLength(1);
    expect((await s.post('/tokens/create', {}, { origin: 'http://localhost:80' })).statusCode).toBe(200);
  });

  it('ends sessions on expiry and on sign-out', async () => {
    const u = await user();
    const s = await session(u.email);
    expect((await s.get('/')).statusCode).toBe(200);
    const out = await s.post('/logout');
    expect(out.statusCode).toBe(303);
    expect(String(out.headers['set-cookie'])).toContain('vigil_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
    expect((await s.get('/')).statusCode).toBe(303);

    const s2 = await session(u.email);
    expect((await s2.get('/')).statusCode).toBe(200);
    await t.container.db.updateTable('sessions').set({ expires_at: Date.now() - 1 }).where('account_id', '=', u.id).execute();
    const expired = await s2.get('/');
    expect(expired.statusCode).toBe(303);
    expect(expired.headers.location).toBe('/login?next=%2F');
    expect((await s2.post('/tokens/create')).statusCode).toBe(303);

    // A new password signs the account out everywhere.
    const s3 = await session(u.email);
    await setAccountPassword(t.container.dashboard.sessions, { email: u.email, password: 'another long password' });
    expect((await s3.get('/')).statusCode).toBe(303);
    await expect(setAccountPassword(t.container.dashboard.sessions, { email: u.email, password: 'short' })).rejects.toThrow(/at least 10/);
  });

  it('shows a created token once, then only its prefix; revokes it', async () => {
    const u = await user();
    const s = await session(u.email);
    const created = await s.post('/tokens/create');
    expect(created.statusCode).toBe(200);
    const token = /<code class="token">(vgl_[A-Za-z0-9_-]+)<\/code>/.exec(created.body)![1]!;
    expect((await t.app.inject({ url: '/v1/camera-monitoring/licenses/', headers: { authorization: `Token ${token}` } })).statusCode).toBe(200);
    const list = await s.get('/tokens');
    expect(list.body).not.toContain(token);
    expect(list.body).toContain(`${token.slice(0, 8)}…`);
    expect(list.body).not.toContain('class="token"');

    const id = (await t.container.db.selectFrom('api_tokens').select('id').where('account_id', '=', u.id).orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    expect((await s.post(`/tokens/${id}/revoke`)).statusCode).toBe(303);
    expect((await t.app.inject({ url: '/v1/camera-monitoring/licenses/', headers: { authorization: `Token ${token}` } })).statusCode).toBe(401);
    // Another account's token is not found, and stays valid.
    const other = await user();
    const otherId = (await t.container.db.selectFrom('api_tokens').select('id').where('account_id', '=', other.id).executeTakeFirstOrThrow()).id;
    expect((await s.post(`/tokens/${otherId}/revoke`)).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/v1/camera-monitoring/licenses/', headers: other.auth })).statusCode).toBe(200);
  });

  it('shows 320 px thumbnails, cached by the browser, to their account only', async () => {
    const u = await user();
    const big = await sceneJpeg(1280, 960, 8);
    const { payload, headers } = await multipartBody({ upload: { bytes: big }, camera_id: 'WIDE-1' });
    expect((await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload, headers: { ...headers, ...u.auth } })).statusCode).toBe(201);
    await t.container.runner.drain();
    const s = await session(u.email);
    const src = /<img src="(\/thumbnails\/[\w-]+)"/.exec((await s.get('/')).body)![1]!;

    const thumb = await s.get(src);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.headers['cache-control']).toBe('private, max-age=86400');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);
    expect(thumb.rawPayload.length).toBeLessThan(big.length / 4);

    const again = await t.app.inject({ url: src, headers: { cookie: s.cookie, 'if-none-match': String(thumb.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    // Another account, or nobody, gets nothing (not even a 304 for a known ETag).
    const other = await session((await user()).email);
    expect((await other.get(src)).statusCode).toBe(404);
    expect((await t.app.inject({ url: src, headers: { cookie: other.cookie, 'if-none-match': String(thumb.headers.etag) } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: src })).statusCode).toBe(303);
    expect((await s.get('/thumbnails/nope')).statusCode).toBe(404);
  });

  it('shows cameras with status, scores and tags; filters; live JSON; edits a camera', async () => {
    const u = await user();
    await upload(u.auth, 'GATE-1', 'north');
    await upload(u.auth, 'GATE-1', 'north');
    await upload(u.auth, 'DOCK-2', 'south');
    const s = await session(u.email);

    const page = await s.get('/');
    expect(page.body).toContain('GATE-1');
    expect(page.body).toContain('DOCK-2');
    expect(page.body).toContain('<span class="tag">north</span>');
    expect(page.body).toMatch(/<img src="\/thumbnails\/[A-Za-z0-9_-]+"/);
    expect(page.body).toContain('status-normal');
    expect((await s.get('/?tag=south')).body).not.toContain('GATE-1');
    expect((await s.get('/?status=anomaly')).body).not.toContain('DOCK-2');

    const live = (await s.get('/live/cameras')).json();
    expect(live.cameras).toHaveLength(2);
    expect(live.cameras[0]).toMatchObject({ status: 'normal', label: 'Normal', scores: { Blur: 0.1 }, thumbnail: expect.stringMatching(/^\/thumbnails\//) });

    const path = `/cameras/${u.license.id}/GATE-1`;
    const cam = await s.get(path);
    expect(cam.statusCode).toBe(200);
    expect(cam.body).toContain('<svg viewBox="0 0 960 260"');
    expect(cam.body).toContain('data-series="Blur"');
    expect(cam.body).toContain('Reference image');

    expect((await s.post(`${path}/thresholds`, { t_Blur: '0.05', review_band: '0.02' })).headers.location).toBe(`${path}?saved=thresholds`);
    expect((await t.app.inject({ url: `/v1/camera-monitoring/${u.license.id}/cameras/GATE-1/thresholds/`, headers: u.auth })).json()).toMatchObject({ thresholds: { Blur: 0.05 }, review_band: 0.02 });
    expect((await s.post(`${path}/thresholds`, { t_Blur: '7' })).statusCode).toBe(400);

    const evil = '<script>alert(1)</script>';
    expect((await s.post(`${path}/details`, { name: evil, notes: 'a "quoted" & <b>note</b>' })).statusCode).toBe(303);
    const edited = await s.get(`${path}?saved=details`);
    expect(edited.body).not.toContain(evil);
    expect(edited.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(edited.body).toContain('a &quot;quoted&quot; &amp; &lt;b&gt;note&lt;/b&gt;');
    expect(edited.body).toContain('Name and notes saved.');
    expect((await s.get('/')).body).not.toContain(evil);

    // Any past snapshot can become the reference.
    const logs = await t.container.db.selectFrom('camera_logs').innerJoin('cameras', 'cameras.id', 'camera_logs.camera_id').select(['camera_logs.id', 'camera_logs.image_id']).where('cameras.serial', '=', 'GATE-1').where('cameras.account_id', '=', u.id).orderBy('camera_logs.id', 'desc').execute();
    expect((await s.post(`${path}/reference-from-log`, { log_id: String(logs[0]!.id) })).statusCode).toBe(303);
    const camera = await t.container.camera.cameras.requireBySerial(u.id, 'GATE-1');
    expect(camera.reference_image_id).toBe(logs[0]!.image_id);
    // And an uploaded image.
    const { payload, headers } = await multipartBody({ _csrf: s.csrf, upload: { bytes: scene } });
    const up = await t.app.inject({ method: 'POST', url: `${path}/reference`, payload, headers: { ...headers, cookie: s.cookie } });
    expect(up.statusCode).toBe(303);
    expect((await t.container.camera.cameras.requireBySerial(u.id, 'GATE-1')).reference_image_id).not.toBe(logs[0]!.image_id);

    expect((await s.post(`/cameras/${u.license.id}/DOCK-2/delete`)).statusCode).toBe(303);
    expect((await s.get(`/cameras/${u.license.id}/DOCK-2`)).statusCode).toBe(404);
  });

  it("answers 404 for another account's license, camera and webhook, and changes nothing", async () => {
    const owner = await user();
    await upload(owner.auth, 'PRIVATE-1');
    const hook = await t.container.notifications.webhooks.create(owner.id, { url: 'https://example.com/hook' });
    const stranger = await user();
    const s = await session(stranger.email);
    const path = `/cameras/${owner.license.id}/PRIVATE-1`;
    const page = await s.get(path);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('PRIVATE-1');
    // The same answer as for a camera that does not exist at all.
    expect((await s.get(`/cameras/${owner.license.id}/NOPE`)).statusCode).toBe(404);
    expect((await s.get('/cameras/999999/NOPE')).statusCode).toBe(404);
    expect((await s.get('/cameras/abc/NOPE')).statusCode).toBe(404);
    expect((await s.post(`${path}/delete`)).statusCode).toBe(404);
    expect((await s.post(`${path}/details`, { name: 'mine', notes: '' })).statusCode).toBe(404);
    expect((await s.post(`${path}/thresholds`, { t_Blur: '0.9' })).statusCode).toBe(404);
    expect((await s.post(`/webhooks/${hook.webhook.id}/delete`)).statusCode).toBe(404);
    expect((await t.container.camera.cameras.requireBySerial(owner.id, 'PRIVATE-1')).name).toBe('PRIVATE-1');
    expect(await t.container.notifications.webhooks.list(owner.id)).toHaveLength(1);
    expect((await s.get('/')).body).not.toContain('PRIVATE-1');
    expect((await s.get('/live/cameras')).json()).toEqual({ cameras: [] });
  });

  it('lists alerts, webhooks with deliveries, and recognition usage', async () => {
    const u = await user();
    const s = await session(u.email);
    expect((await s.get('/alerts')).body).toContain('No alert yet');
    const created = await s.post('/webhooks/create', { url: 'https://example.com/in', family: 'ocr' });
    expect(created.statusCode).toBe(200);
    expect(created.body).toMatch(/<code class="token">whsec_/);
    const hooks = await s.get('/webhooks');
    expect(hooks.body).toContain('https://example.com/in');
    expect(hooks.body).not.toContain('whsec_');
    expect((await s.post('/webhooks/create', { url: 'http://127.0.0.1/x', family: 'ocr' })).statusCode).toBe(400);
    const usage = await s.get('/recognition');
    expect(usage.body).toMatch(/<td>plate-reader<\/td><td>0<\/td><td>2500<\/td>/);
  });

  it('tries OCR and the plate reader on an upload, counts the calls, and shows refusals on the page', async () => {
    const u = await user();
    const s = await session(u.email);
    const read = async (kind: string, bytes: Buffer, extra: Record<string, string> = {}) => {
      const { payload, headers } = await multipartBody({ _csrf: s.csrf, kind, upload: { bytes }, ...extra });
      return t.app.inject({ method: 'POST', url: '/recognition', payload, headers: { ...headers, cookie: s.cookie } });
    };
    const vin = await read('vin', scene);
    expect(vin.statusCode).toBe(200);
    expect(vin.body).toContain('<code>1HGCM82633A004352</code>');
    expect(vin.body).toContain('src="data:image/jpeg;base64,');
    expect(vin.body).toContain('<rect x="30" y="40" width="260" height="30" class="box"/>');
    expect(vin.body).toMatch(/<td>ocr<\/td><td>1<\/td>/);

    const plate = await read('plate', scene);
    expect(plate.body).toContain('<svg viewBox="0 0 320 240"');
    expect(plate.body).toContain('<rect x="10" y="20" width="100" height="30" class="box"/>');
    expect(plate.body).toContain('&lt;B&gt;X&lt;/B&gt;');
    expect(plate.body).not.toContain('<B>X</B>');
    expect(lastPlateOptions).toMatchObject({ regions: [], mode: 'normal', mmc: false });
    // The API's plate options: regions, mode, mmc.
    expect((await read('plate', scene, { regions: 'us-ca, BR', mode: 'fast', mmc: 'on' })).statusCode).toBe(200);
    expect(lastPlateOptions).toMatchObject({ regions: ['us-ca', 'br'], mode: 'fast', mmc: true });
    expect((await read('plate', scene, { mode: 'slow' })).statusCode).toBe(400);

    const notImage = await read('vin', Buffer.from('not an image at all'));
    expect(notImage.statusCode).toBe(400);
    expect(notImage.body).toContain('class="error"');
    expect(notImage.body).toContain('<h1>Recognition</h1>');
    await t.container.usage.setTotalCalls(u.id, 'plate-reader', 1);
    const over = await read('plate', scene);
    expect(over.statusCode).toBe(403);
    expect(over.body).toContain('API call limit reached');
    const { payload, headers } = await multipartBody({ kind: 'vin', upload: { bytes: scene } });
    expect((await t.app.inject({ method: 'POST', url: '/recognition', payload, headers: { ...headers, cookie: s.cookie } })).statusCode).toBe(403);
  });

  it('caps the grid of a large license and says how to see the rest', async () => {
    const u = await user();
    const license = await t.container.licenses.create({ accountId: u.id, size: GRID_LIMIT + 10, expiration: new Date(Date.now() + 86_400_000) });
    const repo = new CameraRepository(t.container.db);
    for (let i = 0; i < GRID_LIMIT + 2; i++) await repo.create({ accountId: u.id, licenseId: license.id, serial: `CAM-${i}` });
    const s = await session(u.email);
    const page = await s.get('/');
    expect(page.body).toContain(`${GRID_LIMIT + 2} cameras`);
    expect(page.body).toContain(`Showing the first ${GRID_LIMIT} of ${GRID_LIMIT + 2}`);
    expect(page.body.match(/data-camera="/g)).toHaveLength(GRID_LIMIT);
    expect((await s.get('/live/cameras')).json().cameras).toHaveLength(GRID_LIMIT);
  });

  it('shows the plate reads, searches them (fuzzy too), pages, exports and opens a visit', async () => {
    const u = await user();
    const other = await user();
    const reading = (plate: string, score = 0.9) => ({ box: { xmin: 1, ymin: 2, xmax: 30, ymax: 12 }, plate, region: { code: 'us', score: 0.8 }, score, candidates: [], dscore: 0.9, vehicle: undefined });
    const t0 = Date.UTC(2026, 10, 20, 8, 0, 0);
    await t.container.plateHistory.record(u.id, { cameraId: 'gate', readAt: t0 }, [reading('abc1234', 0.8)], undefined);
    await t.container.plateHistory.record(u.id, { cameraId: 'gate', readAt: t0 + 30_000 }, [reading('abc1234', 0.95)], undefined);
    for (let i = 0; i < 60; i++) await t.container.plateHistory.record(u.id, { cameraId: 'exit', readAt: t0 + 3_600_000 + i * 600_000 }, [reading(`zz${String(i).padStart(2, '0')}999`)], undefined);
    await t.container.plateHistory.record(other.id, { cameraId: 'gate', readAt: t0 }, [reading('abc1234')], undefined);
    const s = await session(u.email);

    const first = await s.get('/plates');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('aria-current="page">Plates');
    expect(first.body.match(/class="plate">/g)).toHaveLength(50);
    const older = /href="(\/plates\?cursor=[^"]+)" rel="next"/.exec(first.body)![1]!;
    const second = await s.get(older.replace(/&amp;/g, '&'));
    expect(second.body.match(/class="plate">/g)).toHaveLength(12);
    expect(second.body).toContain('ABC1234');

    const near = await s.get('/plates?plate=A8C-1284&fuzzy=on');
    expect(near.body.match(/class="plate">ABC1234</g)).toHaveLength(2);
    expect((await s.get('/plates?plate=A8C-1284')).body).toContain('No plate reads match');
    expect((await s.get('/plates?camera_id=gate')).body.match(/class="plate">/g)).toHaveLength(2);
    expect((await s.get('/plates?camera_id=gate&day=2026-11-20')).body.match(/class="plate">/g)).toHaveLength(2);
    expect((await s.get('/plates?day=2026-11-21')).body).toContain('No plate reads match');
    expect((await s.get('/plates?region=BR')).body).toContain('No plate reads match');
    expect((await s.get('/plates?region=us&camera_id=gate')).body.match(/class="plate">/g)).toHaveLength(2);
    // A day that is no date is no filter.
    expect((await s.get('/plates?day=soon&camera_id=gate')).body.match(/class="plate">/g)).toHaveLength(2);

    const csv = await s.get('/plates.csv?camera_id=gate');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.split('\n')).toHaveLength(3);

    const visitLink = /href="\/plates\/visits\/(\d+)"/.exec(near.body)![1]!;
    const visit = await s.get(`/plates/visits/${visitLink}`);
    expect(visit.statusCode).toBe(200);
    expect(visit.body).toContain('2 reads');
    expect(visit.body).toContain('best score 0.95');
    const stranger = await session(other.email);
    expect((await stranger.get(`/plates/visits/${visitLink}`)).statusCode).toBe(404);
    expect((await stranger.get('/plates')).body.match(/class="plate">/g)).toHaveLength(1);
  });

  it('creates, edits and deletes watchlists, and marks listed plates on the Plates page', async () => {
    const u = await user();
    const s = await session(u.email);
    await t.container.plateHistory.record(u.id, { cameraId: 'gate', readAt: Date.UTC(2026, 10, 21, 8) }, [{ box: { xmin: 1, ymin: 2, xmax: 30, ymax: 12 }, plate: 'abc1284', region: { code: 'us', score: 0.8 }, score: 0.9, candidates: [], dscore: 0.9, vehicle: undefined }], undefined);
    const created = await s.post('/watchlists/create', { name: 'stolen <cars>', tag: 'alert', fuzzy: 'on', plates: 'ABC-1234, reported\nxyz987' });
    expect(created.statusCode).toBe(303);
    const page = await s.get('/watchlists?saved=created');
    expect(page.body).toContain('Watchlist created.');
    expect(page.body).toContain('stolen &lt;cars&gt;');
    expect(page.body).toContain('ABC1234, reported\nXYZ987</textarea>');
    const id = /action="\/watchlists\/(\d+)\/plates"/.exec(page.body)![1]!;
    // The read one character off is marked as on the fuzzy list.
    expect((await s.get('/plates')).body).toMatch(/class="plate">ABC1284 <span class="tag watch-alert" title="on watchlist stolen &lt;cars&gt;">/);
    expect((await s.post(`/watchlists/${id}/plates`, { plates: 'MNO555' })).statusCode).toBe(303);
    expect((await s.get('/watchlists')).body).toContain('MNO555</textarea>');
    expect((await s.get('/plates')).body).not.toContain('watch-alert');
    expect((await s.post('/watchlists/create', { name: 'x', tag: 'maybe' })).statusCode).toBe(400);
    expect((await s.post('/watchlists/create', { name: 'stolen <cars>', tag: 'deny' })).statusCode).toBe(409);
    // Another account cannot delete it.
    const other = await session((await user()).email);
    expect((await other.post(`/watchlists/${id}/delete`)).statusCode).toBe(404);
    expect((await s.post(`/watchlists/${id}/delete`)).statusCode).toBe(303);
    expect((await s.get('/watchlists')).body).toContain('No watchlist yet.');
  });
});
