import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../image/decode.js';
import { blankImage, humanSamplePhotoPath, paintedVehicle } from '../../../test/fixtures/vehicle-images.js';
import { decodeCenternet } from './centernet-decode.js';
import { colourName, dominantColour, VEHICLE_COLOURS } from './vehicle-colour.js';
import { createVehicleDetector } from './vehicle-detector.js';
import { VEHICLE_TYPES, vehicleTypeFor } from './vehicle-types.js';

describe('decodeCenternet (golden rows)', () => {
  // Rows as the graph emits them: x1, y1, x2, y2 (512-pixel input), score, 0-based COCO class.
  const rows = new Float32Array([
    100, 200, 300, 400, 0.9, 2, // car
    104, 204, 296, 396, 0.7, 2, // same car again: suppressed by NMS
    100, 200, 300, 400, 0.6, 7, // same box as truck: another class, kept
    0, 0, 50, 50, 0.1, 0, // person below the score floor
    10, 10, 5, 5, 0.8, 3, // degenerate box
  ]);

  it('scales boxes to the original image, filters by score, suppresses duplicates', () => {
    const out = decodeCenternet(rows, 1024, 256, { minScore: 0.2 });
    expect(out.map((d) => [d.cocoClass, d.score])).toEqual([['car', expect.closeTo(0.9, 5)], ['truck', expect.closeTo(0.6, 5)]]);
    expect(out[0]!.box).toEqual({ xmin: 200, ymin: 100, xmax: 600, ymax: 200 });
  });

  it('clamps to the image', () => {
    const [d] = decodeCenternet(new Float32Array([-20, -5, 600, 530, 0.5, 5]), 512, 512);
    expect(d!.box).toEqual({ xmin: 0, ymin: 0, xmax: 512, ymax: 512 });
    expect(d!.cocoClass).toBe('bus');
  });
});

describe('vehicleTypeFor', () => {
  it.each([
    ['motorcycle', { xmin: 0, ymin: 0, xmax: 50, ymax: 80 }, 'Motorcycle'],
    ['bus', { xmin: 0, ymin: 0, xmax: 300, ymax: 200 }, 'Bus'],
    ['truck', { xmin: 0, ymin: 0, xmax: 200, ymax: 120 }, 'Pickup Truck'],
    ['truck', { xmin: 0, ymin: 0, xmax: 200, ymax: 220 }, 'Big Truck'],
    ['truck', { xmin: 0, ymin: 0, xmax: 600, ymax: 200 }, 'Big Truck'],
    ['car', { xmin: 0, ymin: 0, xmax: 200, ymax: 120 }, 'Sedan'],
    ['car', { xmin: 0, ymin: 0, xmax: 200, ymax: 200 }, 'SUV'],
    ['bicycle', { xmin: 0, ymin: 0, xmax: 50, ymax: 50 }, 'Unknown'],
  ] as const)('%s %j -> %s', (cls, box, type) => {
    expect(vehicleTypeFor(cls, box, 1920, 1080)).toBe(type);
    expect(VEHICLE_TYPES).toContain(type);
  });
});

describe('dominantColour', () => {
  it.each([
    [[200, 20, 25], 'red'],
    [[30, 60, 170], 'blue'],
    [[240, 240, 238], 'white'],
    [[150, 152, 155], 'silver'],
    [[20, 20, 22], 'black'],
    [[230, 200, 20], 'yellow'],
    [[30, 120, 40], 'green'],
    [[110, 70, 35], 'brown'],
  ] as const)('body %j is %s', (rgb, name) => {
    const img = paintedVehicle([...rgb]);
    const out = dominantColour(img, { xmin: 20, ymin: 20, xmax: 180, ymax: 110 });
    expect(out[0]?.color).toBe(name);
    expect(out.length).toBeLessThanOrEqual(3);
    for (const c of out) {
      expect(VEHICLE_COLOURS).toContain(c.color);
      expect(c.score).toBeGreaterThanOrEqual(0);
      expect(c.score).toBeLessThanOrEqual(1);
    }
  });

  it('an empty or outside box is unknown', () => {
    expect(dominantColour(blankImage(), { xmin: 400, ymin: 400, xmax: 500, ymax: 500 })).toEqual([{ color: 'unknown', score: 0 }]);
  });

  it('purple is not a listed colour', () => expect(colourName(140, 40, 200)).toBe('unknown'));
});

describe('createVehicleDetector (CenterNet on tfjs WASM, offline)', () => {
  it('really detects: finds people in the photo that @vladmandic/human ships; a blank image has no vehicle', async () => {
    const detector = await createVehicleDetector();
    const photo = await decodeImage(readFileSync(humanSamplePhotoPath()), { maxSide: 1024 });
    const objects = await detector.detectObjects(photo, { minScore: 0.3 });
    const people = objects.filter((o) => o.cocoClass === 'person');
    expect(people.length).toBeGreaterThanOrEqual(3);
    for (const p of people) {
      expect(p.box.xmax).toBeLessThanOrEqual(photo.width);
      expect(p.box.ymax).toBeLessThanOrEqual(photo.height);
    }
    expect(await detector.detect(blankImage(), { minScore: 0.3 })).toEqual([]);
    // Lazy, once per thread: a second detector reuses the loaded graph.
    const again = await createVehicleDetector();
    expect((await again.detectObjects(photo, { minScore: 0.3 })).length).toBe(objects.length);
  });
});
