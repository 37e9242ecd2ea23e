import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../../test/fixtures/images.js';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app.js';

describe('image URLs of a list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
  });
  afterAll(async () => t.close());

  it('answer in the order asked, the same URL as one at a time, null for no image and for one removed', async () => {
    const a = await t.account();
    const images = t.container.images;
    const kept = await images.store(a.id, await sceneJpeg(80, 60, 1), 'test');
    const gone = await images.store(a.id, await sceneJpeg(80, 60, 2), 'test');
    await images.removeById(gone.id);
    const urls = await images.urlsOfIds([kept.id, null, gone.id, kept.id]);
    expect(urls).toEqual([await images.urlOfId(kept.id), null, null, await images.urlOfId(kept.id)]);
    expect(urls[0]).toMatch(/^http:\/\/vigil\.test\/v1\/images\//);
    expect(await images.urlsOfIds([])).toEqual([]);
  });
});
