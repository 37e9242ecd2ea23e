import { describe, expect, it } from 'vitest';
import { decodeVehicles, HEAD_VEHICLE_CLASSES, VEHICLE_MAP_COUNT } from './detector-vehicles.js';

type Peak = { cls: (typeof HEAD_VEHICLE_CLASSES)[number]; x: number; y: number; heat: number; w: number; h: number; ox?: number; oy?: number };

/** The head's maps (rows x cols cells of 16 input px): per-class heat, per-class pooled heat
 * (left zero: the decoder finds peaks of the summed classes itself), log w, log h, offset x, y. */
function vehicleMaps(rows: number, cols: number, peaks: Peak[]): Float32Array {
  const plane = rows * cols;
  const k = HEAD_VEHICLE_CLASSES.length;
  const out = new Float32Array(VEHICLE_MAP_COUNT * plane);
  for (const p of peaks) {
    const i = p.y * cols + p.x;
    out[HEAD_VEHICLE_CLASSES.indexOf(p.cls) * plane + i] = p.heat;
    out[2 * k * plane + i] = Math.log(p.w);
    out[(2 * k + 1) * plane + i] = Math.log(p.h);
    out[(2 * k + 2) * plane + i] = p.ox ?? 0;
    out[(2 * k + 3) * plane + i] = p.oy ?? 0;
  }
  return out;
}

const photo = { width: 1280, height: 768 };

describe('vehicles from the plate detector\'s vehicle head', () => {
  it('turns each class peak above the floor into a typed box in photo pixels, surest first', () => {
    const maps = vehicleMaps(24, 40, [
      { cls: 'car', x: 10, y: 12, heat: 0.7, w: 160, h: 96, ox: 0.5, oy: 0.25 },
      { cls: 'motorcycle', x: 30, y: 5, heat: 0.9, w: 40, h: 64 },
      { cls: 'bus', x: 20, y: 20, heat: 0.2, w: 200, h: 150 }, // under the floor
    ]);
    // The photo was shrunk by half to the detector's input: boxes come back twice as large.
    const found = decodeVehicles(maps, 24, 40, 0.5, 0.3, photo);
    expect(found).toEqual([
      { type: 'Motorcycle', score: 0.9, box: { xmin: 920, ymin: 96, xmax: 1000, ymax: 224 } },
      { type: 'Sedan', score: 0.7, box: { xmin: 176, ymin: 296, xmax: 496, ymax: 488 } },
    ]);
  });

  it('scores a vehicle the classes share by their sum, named after the strongest, and clamps boxes to the photo', () => {
    const maps = vehicleMaps(24, 40, [
      // The head is torn between car and truck: neither alone passes 0.3, together they do.
      { cls: 'car', x: 10, y: 10, heat: 0.2, w: 200, h: 120 },
      { cls: 'truck', x: 10, y: 10, heat: 0.25, w: 200, h: 120 },
      { cls: 'car', x: 1, y: 1, heat: 0.6, w: 120, h: 80 }, // hangs over the top-left corner
    ]);
    const found = decodeVehicles(maps, 24, 40, 1, 0.3, photo);
    expect(found.map((v) => [v.type, v.score])).toEqual([['Sedan', 0.6], ['Pickup Truck', 0.45]]);
    expect(found[0]!.box).toEqual({ xmin: 0, ymin: 0, xmax: 76, ymax: 56 });
  });

  it('keeps the surer of two boxes that overlap much, and only 3x3 peaks of the summed score', () => {
    const maps = vehicleMaps(24, 40, [
      { cls: 'car', x: 10, y: 10, heat: 0.7, w: 320, h: 200 },
      { cls: 'car', x: 12, y: 10, heat: 0.5, w: 320, h: 200 }, // a second peak on the same car
      { cls: 'bus', x: 11, y: 11, heat: 0.4, w: 300, h: 200 }, // beside the first: not a peak
    ]);
    const found = decodeVehicles(maps, 24, 40, 1, 0.3, photo);
    expect(found.map((v) => v.score)).toEqual([0.7]);
  });

  it('finds nothing in empty maps', () => {
    expect(decodeVehicles(vehicleMaps(24, 40, []), 24, 40, 1, 0.3, photo)).toEqual([]);
  });
});
