import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../../../../test/fixtures/images.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

describe('signed image URLs', () => {
  let t: TestApp;
  let bytes: Buffer;
  beforeAll(async () => {
    t = await buildTestApp({ IMAGE_URL_TTL_SECONDS: '3600' });
    bytes = await sceneJpeg(80, 60);
  });
  afterAll(async () => t.close());

  const pathOf = (url: string) => url.replace('http://vigil.test', '');

  it('are absolute, need no token, and serve the stored bytes', async () => {
    const { id } = await t.account();
    const img = await t.container.images.store(id, bytes, `accounts/${id}/test`);
    const url = t.container.images.url(img.publicId);
    expect(url).toMatch(/^http:\/\/vigil\.test\/v1\/images\/[A-Za-z0-9_-]{20,}\?expires=\d+&signature=/);
    const res = await t.app.inject({ url: pathOf(url) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('are stable within the hour, so clients can cache them', async () => {
    const { id } = await t.account();
    const img = await t.container.images.store(id, bytes, `accounts/${id}/test`);
    const base = Date.UTC(2030, 0, 1, 10, 0, 5);
    expect(t.container.images.url(img.publicId, base)).toBe(t.container.images.url(img.publicId, base + 50 * 60_000));
    const expires = Number(new URL(t.container.images.url(img.publicId, base)).searchParams.get('expires'));
    expect(expires * 1000 - base).toBeGreaterThanOrEqual(3600_000);
  });

  it('refuse a tampered signature, a moved expiry, an expired link and a deleted image', async () => {
    const { id } = await t.account();
    const img = await t.container.images.store(id, bytes, `accounts/${id}/test`);
    const url = new URL(t.container.images.url(img.publicId));
    const sig = url.searchParams.get('signature')!;
    const variants = [
      `${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${sig.slice(0, -2)}xx`,
      `${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 1}&signature=${sig}`,
      pathOf(t.container.images.url(img.publicId, Date.now() - 7200_000)),
    ];
    for (const v of variants) expect((await t.app.inject({ url: v })).statusCode).toBe(404);

    await t.container.images.remove([{ id: img.id, blob_key: `accounts/${id}/test/${img.publicId}.jpg` }]);
    expect((await t.app.inject({ url: pathOf(url.toString()) })).statusCode).toBe(404);
  });
});
