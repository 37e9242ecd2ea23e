import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/** Garbage multipart bodies (broken boundaries, truncated parts, random bytes) sent to the
 * upload and recognition endpoints: always a 4xx in the family's error shape, never a 5xx. */
describe('fuzz: multipart bodies', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  const runs = Number(process.env.FUZZ_RUNS ?? 60);
  beforeAll(async () => {
    t = await buildTestApp({ UPLOAD_RATE_PER_SECOND: '100000', RECOGNITION_RATE_PER_SECOND: '100000' }, { workers: false });
    const a = await t.account();
    await t.container.licenses.create({ accountId: a.id, size: 5, expiration: new Date(Date.now() + 86_400_000) });
    auth = a.auth;
  });
  afterAll(async () => t.close());

  const part = fc.record({
    name: fc.constantFrom('upload', 'camera_id', 'tag', 'type', 'regions', 'config', 'x'),
    filename: fc.option(fc.constantFrom('a.jpg', '', '../../etc/passwd', 'ü.png'), { nil: undefined }),
    body: fc.oneof(fc.string({ maxLength: 64 }), fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a).toString('latin1'))),
  });
  const body = fc.record({
    boundary: fc.constantFrom('XyZ', 'a', '----b0undary'),
    declared: fc.constantFrom('XyZ', 'other', ''),
    parts: fc.array(part, { maxLength: 4 }),
    cut: fc.option(fc.nat(400), { nil: undefined }),
  }).map(({ boundary, declared, parts, cut }) => {
    let raw = parts.map((p) => `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n\r\n${p.body}\r\n`).join('') + `--${boundary}--\r\n`;
    if (cut !== undefined) raw = raw.slice(0, cut);
    return { payload: Buffer.from(raw, 'latin1'), contentType: `multipart/form-data; boundary=${declared || boundary}` };
  });

  it.each(['/v1/camera-monitoring/create-log/', '/v1/ocr/reader/', '/v1/plate-reader/'])('%s', async (url) => {
    await fc.assert(
      fc.asyncProperty(body, async ({ payload, contentType }) => {
        const res = await t.app.inject({ method: 'POST', url, payload, headers: { ...auth, 'content-type': contentType } });
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, res.body).toBeLessThan(500);
        const json = res.json();
        expect(typeof (json.message ?? json.detail)).toBe('string');
      }),
      { numRuns: runs },
    );
  });
});
