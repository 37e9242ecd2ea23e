import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBomb, sceneJpeg } from '../fixtures/images.js';
import { multipartBody } from '../helpers/multipart.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const P = '/v1/camera-monitoring';

/** Odd and hostile files as cameras and clients send them: each one is either accepted and
 * analysed to a status, or refused with a 400 in the spec's shape; none crashes a worker or
 * leaves a half-written log. */
describe('hostile and unusual images through upload and analysis', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let licenseId: number;
  let scene: Buffer;
  beforeAll(async () => {
    t = await buildTestApp({ CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000' });
    const a = await t.account();
    licenseId = (await t.container.licenses.create({ accountId: a.id, size: 100, expiration: new Date(Date.now() + 86_400_000) })).id;
    auth = a.auth;
    scene = await sceneJpeg(320, 240, 31);
  });
  afterAll(async () => t.close());

  const cases: Array<[string, () => Promise<Buffer>, 'accepted' | 'refused']> = [
    ['zero bytes', async () => Buffer.alloc(0), 'refused'],
    ['a truncated JPEG', async () => scene.subarray(0, 600), 'refused'],
    ['a text file named .jpg', async () => Buffer.from('GIF89a? no, just text'), 'refused'],
    ['an SVG with an external reference', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"><image xlink:href="http://169.254.169.254/latest/meta-data" width="64" height="64"/></svg>'), 'refused'],
    ['a 30000x30000 PNG bomb', async () => pngBomb(), 'refused'],
    ['a PDF', async () => Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF'), 'refused'],
    ['a JPEG/HTML polyglot', async () => Buffer.concat([scene, Buffer.from('<html><script>alert(1)</script></html>')]), 'accepted'],
    ['a CMYK JPEG', async () => sharp(scene).toColourspace('cmyk').jpeg().toBuffer(), 'accepted'],
    ['a 16-bit PNG', async () => sharp(scene).toColourspace('rgb16').png().toBuffer(), 'accepted'],
    ['an animated GIF', async () => sharp([scene, scene], { join: { animated: true } }).gif().toBuffer(), 'accepted'],
    ['a multi-page TIFF', async () => sharp([scene, scene], { join: { animated: true } }).tiff().toBuffer().catch(() => sharp(scene).tiff().toBuffer()), 'accepted'],
    ['an EXIF-rotated JPEG', async () => sharp(scene).withMetadata({ orientation: 6 }).jpeg().toBuffer(), 'accepted'],
    ['a 1x1 image', async () => sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).png().toBuffer(), 'accepted'],
  ];

  it.each(cases)('%s', async (name, make, expected) => {
    const serial = `H-${name.replace(/[^a-z0-9]/gi, '')}`.slice(0, 40);
    // A normal first upload becomes the reference, so the odd one is really compared.
    const first = await multipartBody({ upload: { bytes: scene }, camera_id: serial });
    expect((await t.app.inject({ method: 'POST', url: `${P}/create-log/`, payload: first.payload, headers: { ...first.headers, ...auth } })).statusCode).toBe(201);
    const started = Date.now();
    const { payload, headers } = await multipartBody({ upload: { bytes: await make(), filename: 'photo.jpg' }, camera_id: serial });
    const res = await t.app.inject({ method: 'POST', url: `${P}/create-log/`, payload, headers: { ...headers, ...auth } });
    expect(Date.now() - started).toBeLessThan(5000);
    if (expected === 'refused') {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String), code: expect.stringMatching(/^image_/) });
    } else {
      expect(res.statusCode, res.body).toBe(201);
    }
    await t.container.runner.drain();
    const logs = (await t.app.inject({ url: `${P}/${licenseId}/cameras/${serial}/logs/`, headers: auth })).json();
    expect(logs).toHaveLength(expected === 'refused' ? 1 : 2);
    for (const log of logs) expect(['normal', 'anomaly', 'under_review', 'config_issue']).toContain(log.status);
  });
});
