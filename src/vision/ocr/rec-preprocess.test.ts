import { describe, expect, it } from 'vitest';
import { resizeBilinear } from '../image/warp.js';
import { packRecognitionLines, prepareRecognitionBatch, REC_HEIGHT, writeNormalised } from './rec-preprocess.js';

describe('packRecognitionLines', () => {
  const crop = (width: number, height = 48) => ({ width, height });

  it.each([
    { name: 'short crops share one line', crops: [crop(100), crop(200), crop(96, 24)], lines: [[0, 1, 2]] },
    { name: 'a line that would overflow starts another', crops: [crop(600), crop(600), crop(100)], lines: [[0], [1, 2]] },
    { name: 'a crop wider than a line gets its own', crops: [crop(100), crop(1500)], lines: [[0], [1]] },
  ])('$name', ({ crops, lines }) => {
    const packed = packRecognitionLines(crops, 1280, 48);
    expect(packed.map((l) => l.slots.map((s) => s.crop))).toEqual(lines);
    for (const l of packed) {
      expect(l.width % 8).toBe(0);
      // Slots are scaled to height 48, in order, never overlapping, with padding around each.
      l.slots.forEach((s, k) => {
        expect(s.x1 - s.x0).toBe(Math.ceil((48 * crops[s.crop]!.width) / crops[s.crop]!.height));
        expect(s.x0).toBeGreaterThanOrEqual((k === 0 ? 0 : l.slots[k - 1]!.x1) + 48);
      });
      expect(l.width).toBeGreaterThanOrEqual(l.slots.at(-1)!.x1 + 48);
    }
  });
});

describe('prepareRecognitionBatch', () => {
  const crop = (width: number, height: number) => ({
    data: Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i * 37) % 256)),
    width,
    height,
    channels: 3 as const,
  });

  it.each([
    { name: 'a crop at the recogniser height goes in as it is', width: 150, height: REC_HEIGHT },
    { name: 'a taller crop is scaled to that height', width: 300, height: 96 },
    { name: 'a shorter crop is enlarged to it', width: 60, height: 24 },
  ])('$name', ({ width, height }) => {
    const c = crop(width, height);
    const batch = prepareRecognitionBatch([c]);
    expect(batch.dims).toEqual([1, 3, REC_HEIGHT, 320]);
    // The same values as scaling the crop first and writing it in the batch's first slot.
    const expected = new Float32Array(3 * REC_HEIGHT * 320);
    writeNormalised(resizeBilinear(c, Math.ceil((REC_HEIGHT * width) / height), REC_HEIGHT), expected, 0, 320);
    expect(batch.data).toEqual(expected);
  });

  it('pads a short crop to 320 columns, or to the narrower minimum a caller asks for, never below the widest crop', () => {
    const short = crop(100, REC_HEIGHT);
    expect(prepareRecognitionBatch([short]).dims[3]).toBe(320);
    expect(prepareRecognitionBatch([short], REC_HEIGHT, 160).dims[3]).toBe(160);
    expect(prepareRecognitionBatch([short, crop(200, REC_HEIGHT)], REC_HEIGHT, 160).dims[3]).toBe(200);
    // The crop's own columns are the same either way; the rest is zero padding.
    const narrow = prepareRecognitionBatch([short], REC_HEIGHT, 160).data;
    const wide = prepareRecognitionBatch([short]).data;
    for (let c = 0; c < 3; c++) {
      for (let y = 0; y < REC_HEIGHT; y += 7) {
        for (let x = 0; x < 160; x += 13) expect(narrow[(c * REC_HEIGHT + y) * 160 + x]).toBe(wide[(c * REC_HEIGHT + y) * 320 + x]);
      }
    }
  });
});
