import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../services/errors.js';
import { resolveImageSource } from '../../services/image-input.js';
import { SafeFetch } from '../../services/outbound/safe-fetch.js';
import { decodeImage, ImageDecodeError } from './decode.js';

/** Hostile bytes reach the decoder and the base64 parser from the internet: whatever they are,
 * the answer is an image or a typed, user-facing error, never a crash. */
describe('fuzz: image input entry points', async () => {
  const jpeg = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#468' } }).jpeg().toBuffer();
  const runs = Number(process.env.FUZZ_RUNS ?? 150);

  it('decodeImage: arbitrary bytes, and JPEGs with bytes flipped or cut, give an image or ImageDecodeError', async () => {
    const mutated = fc.record({ at: fc.nat(jpeg.length - 1), value: fc.integer({ min: 0, max: 255 }), cut: fc.nat(jpeg.length) });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)), mutated.map(({ at, value, cut }) => {
        const b = Buffer.from(jpeg);
        b[at] = value;
        return b.subarray(0, Math.max(1, cut));
      })), async (bytes) => {
        try {
          const img = await decodeImage(bytes, { maxPixels: 1_000_000 });
          expect(img.data.length).toBe(img.width * img.height * img.channels);
        } catch (err) {
          expect(err).toBeInstanceOf(ImageDecodeError);
        }
      }),
      { numRuns: runs },
    );
  });

  it('base64 upload: arbitrary strings give bytes within the limit, or a 400/413 AppError', async () => {
    const fetch = new SafeFetch({ allow: [] });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 400 }), fc.base64String({ maxLength: 400 }), fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a).toString('base64'))), async (value) => {
        if (/^\s*https?:\/\//i.test(value)) return; // URLs are the outbound client's business
        try {
          const { bytes } = await resolveImageSource({ kind: 'text', value }, { maxBytes: 200, fetch });
          expect(bytes.length).toBeGreaterThan(0);
          expect(bytes.length).toBeLessThanOrEqual(200);
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
          expect([400, 413]).toContain((err as AppError).status);
        }
      }),
      { numRuns: runs * 3 },
    );
  });
});
