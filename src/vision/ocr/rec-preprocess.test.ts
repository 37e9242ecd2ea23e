import { describe, expect, it } from 'vitest';
import { packRecognitionLines } from './rec-preprocess.js';

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
