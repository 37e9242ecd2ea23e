import { describe, expect, it } from 'vitest';
import { plateWidthMetres, typeBySize, vehicleSize, type VehicleSize } from './vehicle-size.js';

describe('plateWidthMetres', () => {
  it.each([
    ['us-ca', 0.305], ['ca', 0.305], ['br', 0.4], ['de', 0.52], ['gb', 0.52], ['au-vic', 0.372], ['unknown', undefined], ['', undefined],
  ] as const)('%s -> %s', (code, metres) => {
    expect(plateWidthMetres(code)).toBe(metres);
  });
});

describe('vehicleSize', () => {
  const photo = { width: 1280, height: 720 };
  it('measures the vehicle in widths of its plate', () => {
    // A US plate 61 px wide: 5 mm a pixel.
    const size = vehicleSize({ xmin: 400, ymin: 200, xmax: 760, ymax: 500 }, { xmin: 550, ymin: 420, xmax: 611, ymax: 450 }, 'us', photo);
    expect(size!.width).toBeCloseTo(1.8, 5);
    expect(size!.height).toBeCloseTo(1.5, 5);
    expect(size).toMatchObject({ widthCut: false, heightCut: false });
  });

  it('says which sides the photo cut, and knows nothing without a known plate width', () => {
    const size = vehicleSize({ xmin: 0, ymin: 100, xmax: 700, ymax: 720 }, { xmin: 300, ymin: 500, xmax: 404, ymax: 530 }, 'de', photo);
    expect(size).toMatchObject({ widthCut: true, heightCut: true });
    expect(vehicleSize({ xmin: 0, ymin: 0, xmax: 10, ymax: 10 }, { xmin: 1, ymin: 1, xmax: 5, ymax: 3 }, 'unknown', photo)).toBeUndefined();
  });
});

describe('typeBySize', () => {
  const size = (width: number, height: number, cut: Partial<VehicleSize> = {}): VehicleSize => ({ width, height, widthCut: false, heightCut: false, ...cut });
  it.each([
    ['Bus', size(1.7, 1.4), 'Sedan'], // a hatchback filling a close photo, which COCO calls a bus
    ['Bus', size(1.7, 1.4, { heightCut: true }), 'Bus'], // a bus's rear cut by the frame: no proof it is small
    ['Bus', size(2.5, 3.1), 'Bus'],
    ['Big Truck', size(1.8, 1.3), 'Sedan'],
    ['Big Truck', size(2.0, 1.9), 'Pickup Truck'],
    ['Big Truck', size(2.5, 3.4), 'Big Truck'],
    ['Pickup Truck', size(1.7, 1.4), 'Sedan'],
    ['Pickup Truck', size(2.0, 1.9), 'Pickup Truck'],
    ['Motorcycle', size(3.0, 1.7), 'SUV'], // an SUV's end: no motorcycle is 3 m wide
    ['Motorcycle', size(1.4, 1.2, { widthCut: true }), 'Sedan'], // at least 1.4 m wide: still no motorcycle
    ['Motorcycle', size(0.8, 1.2), 'Motorcycle'],
    ['Sedan', size(1.8, 1.8), 'SUV'],
    ['SUV', size(1.8, 1.4), 'Sedan'],
    ['SUV', size(1.8, 1.4, { heightCut: true }), 'SUV'],
    ['Unknown', size(1.8, 1.4), 'Unknown'],
  ] as const)('%s of %j -> %s', (detected, s, type) => {
    expect(typeBySize(detected, s)).toBe(type);
  });
});
