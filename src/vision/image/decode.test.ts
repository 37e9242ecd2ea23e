import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pngBomb, sceneJpeg } from '../../../test/fixtures/images.js';
import { decodedShare, decodeForRecognition, decodeImage, ImageDecodeError, probeImage } from './decode.js';

const jpeg = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 10, b: 10 } } }).jpeg().toBuffer();

describe('image decode', () => {
  it('decodes a JPEG to raw RGB and grayscale', async () => {
    const bytes = await jpeg(64, 32);
    const rgb = await decodeImage(bytes);
    expect([rgb.width, rgb.height, rgb.channels, rgb.data.length]).toEqual([64, 32, 3, 64 * 32 * 3]);
    const gray = await decodeImage(bytes, { grayscale: true, maxSide: 16 });
    expect([gray.width, gray.height, gray.channels]).toEqual([16, 8, 1]);
  });

  it('decodes an HEVC-coded HEIC (an iPhone photo), which sharp alone cannot', async () => {
    const heic = await readFile(new URL('../../../test/fixtures/files/blue-128x96.heic', import.meta.url));
    expect(await probeImage(heic)).toEqual({ format: 'heif', width: 128, height: 96 });
    const rgb = await decodeImage(heic);
    expect([rgb.width, rgb.height, rgb.channels]).toEqual([128, 96, 3]);
    // The corner is the fixture's blue, within the codec's loss.
    expect([...rgb.data.subarray(0, 3)].map((v, i) => Math.abs(v - [200, 120, 40][i]!) <= 8)).toEqual([true, true, true]);
    const small = await decodeForRecognition(heic, { maxSide: 32, grayscale: true });
    expect([small.width, small.height, small.channels]).toEqual([32, 24, 1]);
  });

  it('refuses a HEIC whose data is cut short', async () => {
    const heic = await readFile(new URL('../../../test/fixtures/files/blue-128x96.heic', import.meta.url));
    await expect(decodeImage(heic.subarray(0, heic.length - 200))).rejects.toBeInstanceOf(ImageDecodeError);
  });

  it('applies EXIF orientation', async () => {
    const bytes = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#fff' } })
      .withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect(await probeImage(bytes)).toMatchObject({ width: 20, height: 40 });
    expect(await decodeImage(bytes)).toMatchObject({ width: 20, height: 40 });
  });

  it.each([
    ['empty', Buffer.alloc(0), 'empty'],
    ['text', Buffer.from('hello, I am not a picture'), 'unreadable'],
    ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'unsupported_format'],
  ])('refuses %s input', async (_name, bytes, reason) => {
    await expect(decodeImage(bytes)).rejects.toMatchObject({ name: 'ImageDecodeError', reason });
  });

  it('refuses a truncated JPEG', async () => {
    const bytes = await jpeg(256, 256);
    await expect(decodeImage(bytes.subarray(0, bytes.length / 2))).rejects.toBeInstanceOf(ImageDecodeError);
  });

  describe('truncated files', () => {
    const progressive = async () => sharp(await sceneJpeg(320, 240, 7)).jpeg({ progressive: true }).toBuffer();
    const baseline = async () => sharp(await sceneJpeg(320, 240, 7)).jpeg().toBuffer();

    it('refuses a cut-short file by default (camera uploads stay strict)', async () => {
      const cut = (await progressive()).subarray(0, 0.6 * (await progressive()).length);
      await expect(decodeImage(cut)).rejects.toMatchObject({ reason: 'unreadable' });
    });

    it('reads a progressive JPEG cut short for recognition: the whole frame is there', async () => {
      const full = await progressive();
      const img = await decodeForRecognition(full.subarray(0, Math.round(full.length * 0.6)));
      expect([img.width, img.height]).toEqual([320, 240]);
      expect(decodedShare(img)).toBe(1);
    });

    it('reads a baseline JPEG missing a few bottom rows, refuses one missing most of them', async () => {
      const full = await baseline();
      const nearly = await decodeForRecognition(full.subarray(0, Math.round(full.length * 0.92)));
      expect(decodedShare(nearly)).toBeGreaterThan(0.75);
      expect(decodedShare(nearly)).toBeLessThan(1);
      await expect(decodeForRecognition(full.subarray(0, Math.round(full.length * 0.4))))
        .rejects.toMatchObject({ reason: 'unreadable', message: expect.stringMatching(/too little/) });
      // Header and nothing else: a clear 400, not a grey picture.
      await expect(decodeForRecognition(full.subarray(0, 600))).rejects.toBeInstanceOf(ImageDecodeError);
    });

    it('keeps the pixel limit for truncated files', async () => {
      const full = await progressive();
      await expect(decodeForRecognition(full.subarray(0, full.length - 100), { maxPixels: 1000 }))
        .rejects.toMatchObject({ reason: 'too_large' });
      await expect(decodeForRecognition(pngBomb(30000, 30000).subarray(0, 5000))).rejects.toMatchObject({ reason: 'too_large' });
    });
  });

  it('refuses a decompression bomb from its header, before decoding', async () => {
    const bomb = pngBomb(30000, 30000);
    expect(bomb.length).toBeLessThan(1_000_000);
    await expect(probeImage(bomb)).rejects.toMatchObject({ reason: 'too_large' });
    await expect(decodeImage(bomb)).rejects.toMatchObject({ reason: 'too_large' });
  });
});
