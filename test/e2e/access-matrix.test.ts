import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setAccountPassword } from '../../src/services/dashboard/index.js';
import { USAGE_FAMILIES } from '../../src/domain/usage.js';
import { hashToken } from '../../src/services/tokens.service.js';
import { TokenRepository } from '../../src/storage/repositories/token.repository.js';
import { sceneJpeg } from '../fixtures/images.js';
import { multipartBody } from '../helpers/multipart.js';
import { listRoutes, type RouteEntry } from '../helpers/routes.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/** Every API endpoint against callers who must not get in: no token, a malformed header, a
 * revoked token, and a valid token of another account reaching for the owner's resources. */
describe('access matrix', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<TestApp['account']>>;
  let stranger: Awaited<ReturnType<TestApp['account']>>;
  let revoked: Record<string, string>;
  let licenseId: number;
  let webhookId: number;
  let upload: { payload: Buffer; headers: Record<string, string> };
  beforeAll(async () => {
    t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000', RECOGNITION_RATE_PER_SECOND: '1000' }, { workers: false });
    owner = await t.account();
    stranger = await t.account();
    const gone = await t.account();
    await t.container.tokens.revoke(gone.token);
    revoked = gone.auth;
    licenseId = (await t.container.licenses.create({ accountId: owner.id, size: 5, expiration: new Date(Date.now() + 86_400_000) })).id;
    await t.container.licenses.create({ accountId: stranger.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    upload = await multipartBody({ upload: { bytes: await sceneJpeg(160, 120, 2) }, camera_id: 'OWNED' });
    expect((await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload: upload.payload, headers: { ...upload.headers, ...owner.auth } })).statusCode).toBe(201);
    webhookId = (await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: owner.auth, payload: { url: 'https://hooks.example.com/x', family: 'camera-monitoring' } })).json().id;
  });
  afterAll(async () => t.close());

  const P = '/v1/camera-monitoring';
  const endpoints = (): Array<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: 'upload' | object; owned: boolean }> => [
    { method: 'GET', url: `${P}/licenses/`, owned: false },
    { method: 'POST', url: `${P}/create-log/`, body: 'upload', owned: false },
    { method: 'GET', url: `${P}/${licenseId}/cameras/`, owned: true },
    { method: 'GET', url: `${P}/${licenseId}/cameras/OWNED/logs/`, owned: true },
    { method: 'GET', url: `${P}/${licenseId}/cameras/OWNED/reference/`, owned: true },
    { method: 'POST', url: `${P}/${licenseId}/cameras/OWNED/reference/`, body: 'upload', owned: true },
    { method: 'GET', url: `${P}/${licenseId}/cameras/OWNED/thresholds/`, owned: true },
    { method: 'PUT', url: `${P}/${licenseId}/cameras/OWNED/thresholds/`, body: { thresholds: { Blur: 0.9 } }, owned: true },
    { method: 'DELETE', url: `${P}/${licenseId}/cameras/OWNED/`, owned: true },
    { method: 'GET', url: `${P}/${licenseId}/alerts/`, owned: true },
    { method: 'GET', url: `/v1/vision-alert/${licenseId}/cameras/`, owned: true },
    { method: 'GET', url: '/v1/webhooks/', owned: false },
    { method: 'POST', url: '/v1/webhooks/', body: { url: 'https://hooks.example.com/y' }, owned: false },
    { method: 'DELETE', url: `/v1/webhooks/${webhookId}/`, owned: true },
    { method: 'POST', url: `/v1/webhooks/${webhookId}/enable/`, owned: true },
    { method: 'GET', url: `/v1/webhooks/${webhookId}/deliveries/`, owned: true },
    { method: 'POST', url: '/v1/ocr/reader/', body: 'upload', owned: false },
    { method: 'POST', url: '/v1/vin/reader/', body: 'upload', owned: false },
    { method: 'POST', url: '/v1/trailer-id/reader/', body: 'upload', owned: false },
    { method: 'POST', url: '/v1/plate-reader/', body: 'upload', owned: false },
    { method: 'GET', url: '/v1/ocr/statistics/', owned: false },
    { method: 'GET', url: '/v1/vin/statistics/', owned: false },
    { method: 'GET', url: '/v1/trailer-id/statistics/', owned: false },
    { method: 'GET', url: '/v1/statistics/', owned: false },
    { method: 'GET', url: '/v1/plate-reads/', owned: false },
    { method: 'GET', url: '/v1/plate-reads.csv', owned: false },
    { method: 'GET', url: '/v1/plate-visits/', owned: false },
    { method: 'GET', url: '/v1/watchlists/', owned: false },
  ];

  const call = (e: ReturnType<typeof endpoints>[number], headers: Record<string, string>) => {
    if (e.body === 'upload') return t.app.inject({ method: e.method, url: e.url, payload: upload.payload, headers: { ...upload.headers, ...headers } });
    return t.app.inject({ method: e.method, url: e.url, headers, ...(e.body ? { payload: e.body } : {}) });
  };

  it('answers 401 without a token, with a malformed header and with a revoked token, on every endpoint', async () => {
    for (const e of endpoints()) {
      for (const headers of [{}, { authorization: 'Token' }, { authorization: `Bearer ${owner.token}` }, { authorization: 'Token vgl_' + 'x'.repeat(32) }, revoked]) {
        const res = await call(e, headers);
        expect(res.statusCode, `${e.method} ${e.url} ${JSON.stringify(headers)}`).toBe(401);
      }
    }
  });

  it("keeps another account out of the owner's licenses, cameras and webhooks, changing nothing", async () => {
    for (const e of endpoints().filter((x) => x.owned)) {
      const res = await call(e, stranger.auth);
      const expected = e.url.startsWith('/v1/webhooks') ? 404 : 403;
      expect(res.statusCode, `${e.method} ${e.url}`).toBe(expected);
    }
    // Still there, untouched.
    const cams = (await t.app.inject({ url: `${P}/${licenseId}/cameras/`, headers: owner.auth })).json();
    expect(cams.map((c: { serial: string }) => c.serial)).toEqual(['OWNED']);
    const th = (await t.app.inject({ url: `${P}/${licenseId}/cameras/OWNED/thresholds/`, headers: owner.auth })).json();
    expect(th.thresholds.Blur).toBe(0.5);
    expect((await t.app.inject({ url: '/v1/webhooks/', headers: owner.auth })).json()).toHaveLength(1);
  });
});

/** Routes anyone may call, and why. Every other route is walked below: a route added without
 * authentication fails the test until it is listed here with its reason. */
const PUBLIC_ROUTES: Record<string, string> = {
  'GET /healthz': 'liveness probe for the orchestrator; answers {"status":"ok"} and nothing else',
  'GET /readyz': 'readiness probe; names the parts that answer, no account data',
  'GET /metrics': 'Prometheus scrape; process and per-route figures, no account data (asserted below)',
  'GET /docs': 'the OpenAPI reference is public documentation',
  'GET /docs/*': 'Swagger UI assets',
  'GET /docs/static/index.html': 'Swagger UI',
  'GET /docs/static/swagger-initializer.js': 'Swagger UI',
  'GET /docs/json': 'the OpenAPI document',
  'GET /docs/yaml': 'the OpenAPI document',
  'GET /openapi.json': 'the OpenAPI document',
  'GET /v1/images/:publicId': 'signed image URL: the HMAC signature and its expiry are the credential (tested below)',
  'GET /assets/dashboard.css': 'static dashboard asset',
  'GET /assets/dashboard.js': 'static dashboard asset',
  'GET /assets/favicon.svg': 'static dashboard asset',
  'GET /login': 'the dashboard sign-in page',
  'POST /login': 'the dashboard sign-in form (throttled per address and e-mail)',
  'POST /login/link': 'asks for an e-mailed sign-in link (same answer for unknown addresses, throttled)',
  'GET /login/link': 'the page a sign-in link opens: the one-time token in it is the credential',
  'POST /login/link/use': 'consumes a one-time sign-in token',
};

/** Every route the app registers, read from the router itself: no token, a revoked token, another
 * account's token or dashboard session reaching for the owner's license, camera, image, webhook,
 * alert, token and statistics. */
describe('access matrix over every registered route', () => {
  const PASSWORD = 'correct horse battery';
  let t: TestApp;
  let routes: RouteEntry[];
  let owner: Awaited<ReturnType<TestApp['account']>>;
  let stranger: Awaited<ReturnType<TestApp['account']>>;
  let revoked: Record<string, string>;
  let params: Record<string, string>;
  let imageUrl: URL;
  let upload: { payload: Buffer; headers: Record<string, string> };
  // Strings only the owner's data contains: none may reach the stranger.
  const SERIAL = 'OWNED-CAM-Q7Z';
  const HOOK_URL = 'https://owner-hooks.example.com/secret-path';
  const OWNER_QUOTA = 987_654;
  let ownerMarkers: string[];

  beforeAll(async () => {
    t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000', RECOGNITION_RATE_PER_SECOND: '1000', ALERT_GROUP_WINDOW_SECONDS: '0' });
    routes = listRoutes(t.app);
    owner = await t.account();
    stranger = await t.account();
    const gone = await t.account();
    await t.container.tokens.revoke(gone.token);
    revoked = gone.auth;
    const license = await t.container.licenses.create({ accountId: owner.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    await t.container.licenses.create({ accountId: stranger.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    await setAccountPassword(t.container.dashboard.sessions, { email: stranger.email, password: PASSWORD });
    const hook = await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: owner.auth, payload: { url: HOOK_URL, family: 'camera-monitoring' } });
    expect(hook.statusCode).toBe(201);
    // A reference, then a blurred frame: a log, an anomaly and an alert of the owner's.
    const scene = await sceneJpeg(320, 240, 4);
    for (const bytes of [scene, await sharp(scene).blur(12).jpeg().toBuffer()]) {
      const form = await multipartBody({ upload: { bytes }, camera_id: SERIAL });
      const res = await t.app.inject({ method: 'POST', url: '/v1/camera-monitoring/create-log/', payload: form.payload, headers: { ...form.headers, ...owner.auth } });
      expect(res.statusCode).toBe(201);
      await t.container.runner.drain();
    }
    const alerts = (await t.app.inject({ url: `/v1/camera-monitoring/${license.id}/alerts/`, headers: owner.auth })).json();
    expect(alerts.length).toBeGreaterThan(0);
    const logs = (await t.app.inject({ url: `/v1/camera-monitoring/${license.id}/cameras/${SERIAL}/logs/`, headers: owner.auth })).json();
    imageUrl = new URL(logs[0].snapshot);
    const tokenId = (await t.container.db.selectFrom('api_tokens').select('id').where('account_id', '=', owner.id).executeTakeFirstOrThrow()).id;
    params = { license_id: String(license.id), licenseId: String(license.id), serial: SERIAL, id: String(hook.json().id), publicId: imageUrl.pathname.split('/').pop()! };
    // Statistics: the owner's quota and calls are figures no other account may see.
    for (const family of USAGE_FAMILIES) {
      await t.container.usage.setTotalCalls(owner.id, family, OWNER_QUOTA);
      for (let i = 0; i < 3; i++) await t.container.usage.takeCall(owner.id, family);
    }
    // A plate read of the owner's, in a visit (the first: its id is the webhook's, 1, which the
    // walk below asks for).
    const box = { xmin: 1, ymin: 2, xmax: 30, ymax: 12 };
    await t.container.plateHistory.record(owner.id, { cameraId: SERIAL, readAt: Date.now() }, [{ box, plate: 'ownr777', region: { code: 'us', score: 0.9 }, score: 0.9, candidates: [], dscore: 0.9, vehicle: undefined }], undefined);
    expect((await t.container.plateHistory.listVisits(owner.id, { limit: 1 })).visits[0]!.id).toBe(hook.json().id);
    // A watchlist of the owner's, the first too.
    const owned = await t.container.watchlists.create(owner.id, { name: 'owner-list-k3', tag: 'deny', fuzzy: false, plates: [{ plate: 'ownr778' }] });
    expect(owned.id).toBe(hook.json().id);
    ownerMarkers = [SERIAL, HOOK_URL, owner.email, owner.token, imageUrl.pathname.split('/').pop()!, String(OWNER_QUOTA), 'ownr777', 'owner-list-k3', 'ownr778'];
    upload = await multipartBody({ upload: { bytes: scene }, camera_id: 'STRANGER-CAM' });
    // The dashboard token list addresses tokens by id.
    params.tokenId = String(tokenId);
  });
  afterAll(async () => t.close());

  const concrete = (r: RouteEntry) =>
    r.url.replace(/^\/tokens\/:id/, `/tokens/${params.tokenId}`).replace(/:([A-Za-z_]+)/g, (_, name: string) => params[name] ?? 'x').replace(/\*$/, 'x');
  const key = (r: RouteEntry) => `${r.method} ${r.url}`;
  /** A GET over a real socket, reading at most 1.5 s of the body: event streams never end. */
  let base = '';
  const getBriefly = async (url: string, headers: Record<string, string>) => {
    base ||= await t.app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 1500);
    const res = await fetch(base + url, { headers, redirect: 'manual', signal: controller.signal });
    let body = '';
    try {
      for await (const chunk of res.body ?? []) body += Buffer.from(chunk).toString('utf8');
    } catch {
      // cut off: a stream
    } finally {
      clearTimeout(timer);
    }
    return { statusCode: res.status, body };
  };
  const isApi = (r: RouteEntry) => r.url.startsWith('/v1/') && !PUBLIC_ROUTES[key(r)];
  const isDashboard = (r: RouteEntry) => !r.url.startsWith('/v1/') && !PUBLIC_ROUTES[key(r)];
  // A valid request for each method, so that only the caller's identity decides the answer.
  const send = (r: RouteEntry, headers: Record<string, string>) =>
    r.method === 'POST'
      ? t.app.inject({ method: 'POST', url: concrete(r), payload: upload.payload, headers: { ...upload.headers, ...headers } })
      : r.method === 'PUT'
        ? t.app.inject({ method: 'PUT', url: concrete(r), payload: r.url.includes('/watchlists/') ? { plates: [] } : { thresholds: { Blur: 0.9 } }, headers })
        : t.app.inject({ method: r.method as 'GET' | 'DELETE', url: concrete(r), headers });

  it('finds every family in the router, and every public route listed still exists', () => {
    const keys = new Set(routes.map(key));
    for (const k of Object.keys(PUBLIC_ROUTES)) expect(keys, k).toContain(k);
    for (const k of ['POST /v1/camera-monitoring/create-log', 'GET /v1/webhooks/:id/deliveries', 'POST /v1/plate-reader', 'GET /v1/statistics', 'POST /cameras/:licenseId/:serial/delete']) {
      expect(keys, k).toContain(k);
    }
    expect(routes.length).toBeGreaterThan(50);
  });

  it('answers 401 in the family\'s error shape on every API route without a token or with a revoked one', async () => {
    for (const r of routes.filter(isApi)) {
      for (const headers of [{}, revoked, { authorization: `Token ${owner.token}x` }]) {
        const res = await send(r, headers);
        expect(res.statusCode, `${key(r)} ${JSON.stringify(headers)}`).toBe(401);
        const body = res.json();
        const recognition = /^\/v1\/(ocr|vin|trailer-id|plate-reader|plate-reads|plate-visits|watchlists|statistics)\b/.test(r.url);
        // CodeProject.AI's route answers in that server's shape (docs/compatibility.md).
        const codeProject = r.url === '/v1/image/alpr';
        const shape = codeProject ? { success: false, error: 'Invalid or missing API token.', code: 401, reason: 'unauthorized' }
          : recognition ? { detail: expect.any(String), status_code: 401, code: 'unauthorized' } : { message: expect.any(String), code: 'unauthorized' };
        expect(body, key(r)).toEqual(shape);
      }
    }
  });

  it('sends every dashboard page without a session to the sign-in page (401 for live data)', async () => {
    for (const r of routes.filter(isDashboard)) {
      const res = await send(r, owner.auth); // an API token is no dashboard session
      if (r.url.startsWith('/live/')) expect(res.statusCode, key(r)).toBe(401);
      else {
        expect(res.statusCode, key(r)).toBe(303);
        expect(res.headers.location, key(r)).toMatch(/^\/login/);
      }
    }
  });

  it("never shows the owner's data to another account, on any route, and changes nothing", async () => {
    const login = await t.app.inject({
      method: 'POST', url: '/login', remoteAddress: '10.7.0.1',
      payload: new URLSearchParams({ email: stranger.email, password: PASSWORD }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(login.statusCode).toBe(303);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec((await t.app.inject({ url: '/tokens', headers: { cookie } })).body)![1]!;

    // Statistics are the caller's own: none of the owner's calls (checked before the walk below
    // makes calls of the stranger's own).
    for (const url of routes.filter((r) => r.method === 'GET' && /statistics$/.test(r.url)).map((r) => r.url)) {
      const mine = (await t.app.inject({ url, headers: stranger.auth })).json();
      expect(JSON.stringify(mine), url).not.toMatch(/"calls":[1-9]/);
      expect(JSON.stringify((await t.app.inject({ url, headers: owner.auth })).json()), url).toMatch(/"calls":3|987654/);
    }
    // Signing out ends the session the other routes need: last.
    const walk = routes.filter((x) => !PUBLIC_ROUTES[key(x)]).sort((a, b) => Number(a.url === '/logout') - Number(b.url === '/logout'));
    for (const r of walk) {
      const ownedParam = /:(license_id|licenseId|serial|id)\b/.test(r.url);
      let res;
      // Reading the stranger's own image (OCR, plates) proves nothing here and costs seconds:
      // routes that name no resource of the owner get an empty form.
      if (isApi(r) && r.method === 'POST' && !ownedParam) {
        res = await t.app.inject({ method: 'POST', url: concrete(r), payload: '--x--\r\n', headers: { 'content-type': 'multipart/form-data; boundary=x', ...stranger.auth } });
      } else if (isApi(r)) res = await send(r, stranger.auth);
      else if (r.method === 'POST') {
        res = await t.app.inject({ method: 'POST', url: concrete(r), payload: new URLSearchParams({ _csrf: csrf, name: 'taken', url: 'https://stranger.example.com/h' }).toString(), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } });
      } else res = await getBriefly(concrete(r), { cookie });
      for (const marker of ownerMarkers) expect(res.body, `${key(r)} shows ${marker}`).not.toContain(marker);
      if (ownedParam && isApi(r)) {
        // The spec: another account's license or camera is 403; a webhook, visit or watchlist id
        // is simply not theirs (404).
        expect(res.statusCode, key(r)).toBe(/^\/v1\/(webhooks|plate-visits|watchlists)/.test(r.url) ? 404 : 403);
      } else if (ownedParam) {
        expect([403, 404], key(r)).toContain(res.statusCode);
      } else {
        expect(res.statusCode, key(r)).toBeLessThan(500);
      }
    }
    // The owner's camera, webhook, token and logs are all still there.
    const lic = params.license_id;
    expect((await t.app.inject({ url: `/v1/camera-monitoring/${lic}/cameras/${SERIAL}/logs/`, headers: owner.auth })).json()).toHaveLength(2);
    expect((await t.app.inject({ url: '/v1/webhooks/', headers: owner.auth })).json()).toMatchObject([{ url: HOOK_URL, active: true }]);
    expect((await t.app.inject({ url: '/v1/watchlists/', headers: owner.auth })).json()).toMatchObject([{ name: 'owner-list-k3', plates: [{ plate: 'ownr778' }] }]);
    expect((await t.app.inject({ url: '/v1/camera-monitoring/licenses/', headers: owner.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/v1/camera-monitoring/${lic}/cameras/${SERIAL}/thresholds/`, headers: owner.auth })).json().thresholds.Blur).toBe(0.5);
  });

  it('serves a signed image URL to anyone who holds it, and refuses it expired, tampered or moved', async () => {
    const path = imageUrl.pathname + imageUrl.search;
    expect((await t.app.inject({ url: path })).statusCode).toBe(200);
    const expires = Number(imageUrl.searchParams.get('expires'));
    const signature = imageUrl.searchParams.get('signature')!;
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    for (const bad of [
      `${imageUrl.pathname}?expires=${expires + 3600}&signature=${signature}`, // a later expiry, same signature
      `${imageUrl.pathname}?expires=${expires}&signature=${flipped}`,
      `${imageUrl.pathname}?expires=${expires}&signature=${signature.slice(0, -2)}`,
      `${imageUrl.pathname}x?expires=${expires}&signature=${signature}`,
      `${imageUrl.pathname}?expires=${expires}`,
    ]) {
      const res = await t.app.inject({ url: bad });
      expect(res.statusCode, bad).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, bad).toBeLessThan(500);
      expect(res.headers['content-type'], bad).not.toMatch(/^image\//);
    }
    // Expired: the same URL, later.
    const later = await t.container.images.open(params.publicId!, expires, signature, expires * 1000 + 1);
    expect(later).toBeUndefined();
    const now = await t.container.images.open(params.publicId!, expires, signature);
    expect(now?.bytes.length).toBeGreaterThan(0);
  });

  it('looks a token up by its SHA-256 through the index, never by the secret itself, and stores only the hash', async () => {
    // One character off; the replacement must differ from the token's own last character.
    const wrong = owner.token.slice(0, -1) + (owner.token.endsWith('Z') ? 'Y' : 'Z');
    const lookup = vi.spyOn(TokenRepository.prototype, 'findActiveByHash');
    try {
      expect((await t.app.inject({ url: '/v1/webhooks/', headers: owner.auth })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/v1/webhooks/', headers: { authorization: `Token ${wrong}` } })).statusCode).toBe(401);
      expect(lookup.mock.calls.map((c) => c[0])).toEqual([hashToken(owner.token), hashToken(wrong)]);
    } finally {
      lookup.mockRestore();
    }
    const stored = JSON.stringify(await t.container.db.selectFrom('api_tokens').selectAll().execute());
    expect(stored).not.toContain(owner.token);
    expect(stored).toContain(hashToken(owner.token));
  });

  it('keeps account data out of the public routes', async () => {
    for (const k of Object.keys(PUBLIC_ROUTES).filter((x) => x.startsWith('GET ') && !x.includes(':publicId'))) {
      const res = await t.app.inject({ url: k.slice(4).replace('*', 'x') });
      expect(res.statusCode, k).toBeLessThan(500);
      for (const marker of ownerMarkers) expect(res.body, `${k} shows ${marker}`).not.toContain(marker);
    }
  });
});
