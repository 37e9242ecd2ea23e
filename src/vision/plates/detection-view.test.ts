import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { detectionView } from './detection-view.js';

const blank = (width: number, height: number): RawImage => ({ data: Buffer.alloc(width * height * 3, 128), width, height, channels: 3 });

describe('detectionView', () => {
  it('shrinks the longer side to the limit, sides multiples of 32', async () => {
    const view = await detectionView(blank(1280, 720), 640, 2);
    expect([view.image.width, view.image.height]).toEqual([640, 352]);
    expect(view.scaleX).toBeCloseTo(2);
  });

  it('shrinks a square photo further to stay within the pixel budget', async () => {
    const view = await detectionView(blank(1280, 1280), 640, 2, 640 * 480);
    expect([view.image.width, view.image.height]).toEqual([544, 544]);
    expect(view.scaleY).toBeCloseTo(1280 / 544);
  });

  it('leaves photos within the budget as the longer-side limit makes them', async () => {
    const view = await detectionView(blank(1280, 960), 640, 2, 640 * 480);
    expect([view.image.width, view.image.height]).toEqual([640, 480]);
  });

  it('does not hold back the enlargement of small images', async () => {
    const view = await detectionView(blank(400, 400), 640, 2, 640 * 480);
    expect([view.image.width, view.image.height]).toEqual([640, 640]);
  });
});
