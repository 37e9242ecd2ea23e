import { describe, expect, it } from 'vitest';
import { isCloseUp, scaledResult } from './close-up.js';
import type { PlateReadResult } from './plate.types.js';

describe('a close-up read at a crop\'s size', () => {
  it('gives its plate and vehicle boxes back in the photo\'s pixels, inside the photo', () => {
    const small: PlateReadResult = {
      plates: [{ box: { xmin: 10, ymin: 20, xmax: 300, ymax: 150 }, plate: 'abc1234', region: { code: 'us', score: 0.5 }, score: 0.9, candidates: [], dscore: 0.8,
        vehicle: { type: 'Sedan', score: 0.7, box: { xmin: 0, ymin: 0, xmax: 320, ymax: 180 } } }],
      vehiclesWithoutPlate: [],
    };
    const big = scaledResult(small, 4, { width: 1280, height: 700 });
    expect(big.plates[0]!.box).toEqual({ xmin: 40, ymin: 80, xmax: 1200, ymax: 600 });
    expect(big.plates[0]!.vehicle!.box).toEqual({ xmin: 0, ymin: 0, xmax: 1280, ymax: 700 });
    expect(big.plates[0]!.plate).toBe('abc1234');
  });

  it('is a close-up only where the shrunk photo shows a plate across a good part of it', () => {
    const found = (xmin: number, xmax: number, score = 0.85) => [{ box: { xmin, ymin: 300, xmax, ymax: 400 }, score }];
    expect(isCloseUp({ width: 1280 }, found(100, 1100), 0)).toBe(true);
    expect(isCloseUp({ width: 1280 }, found(100, 1100), 0.5)).toBe(true); // pieces of it boxed unsurely as it is
    expect(isCloseUp({ width: 1280 }, found(100, 1100, 0.4), 0.5)).toBe(false);
    expect(isCloseUp({ width: 1280 }, found(600, 760), 0)).toBe(false); // a scene's plate, 160 px wide
    expect(isCloseUp({ width: 1280 }, found(300, 1100), 0)).toBe(false); // a car photographed close
    expect(isCloseUp({ width: 1280 }, [], 0)).toBe(false);
  });
});
