import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pngBomb } from '../../../test/fixtures/images.js';
import { decodeImage, ImageDecodeError, probeImage } from './decode.js';

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

  it('refuses a decompression bomb from its header, before decoding', async () => {
    const bomb = pngBomb(30000, 30000);
    expect(bomb.length).toBeLessThan(1_000_000);
    await expect(probeImage(bomb)).rejects.toMatchObject({ reason: 'too_large' });
    await expect(decodeImage(bomb)).rejects.toMatchObject({ reason: 'too_large' });
  });
});
