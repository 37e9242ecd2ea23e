import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { quadAxis, quadBounds, quadSize } from '../image/quad.js';
import { refineCandidate, type TextDetector } from './candidate-refiner.js';
import type { PlateCandidate, Quad } from './plate.types.js';

/** A light image with dark boxes ([x0, y0, x1, y1], exclusive ends). */
function picture(width: number, height: number, boxes: ReadonlyArray<readonly [number, number, number, number]>): RawImage {
  const data = Buffer.alloc(width * height * 3, 230);
  for (const [x0, y0, x1, y1] of boxes) {
    for (let y = y0; y < y1; y++) data.fill(30, (y * width + x0) * 3, (y * width + x1) * 3);
  }
  return { data, width, height, channels: 3 };
}

/** Boxes all the dark ink of the view as one line, as a text detector would, except that ink cut
 * at the view's left or right side gets no box (a detector does not box text it sees cut off);
 * counts its calls. */
function inkDetector() {
  let calls = 0;
  const detector: TextDetector = {
    async detect(view) {
      calls++;
      let x0 = Infinity, x1 = -1, y0 = Infinity, y1 = -1;
      for (let y = 0; y < view.height; y++) for (let x = 0; x < view.width; x++) {
        if (view.data[(y * view.width + x) * view.channels]! < 128) {
          x0 = Math.min(x0, x); x1 = Math.max(x1, x + 1); y0 = Math.min(y0, y); y1 = Math.max(y1, y + 1);
        }
      }
      if (x1 < 0 || x0 === 0 || x1 === view.width) return [];
      return [{ score: 0.9, quad: [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }] }];
    },
  };
  return { detector, calls: () => calls };
}

/** Six characters 24 px wide every 34 px from x = 20 (x 20..214). */
const image = picture(300, 100, Array.from({ length: 6 }, (_, i) => [20 + 34 * i, 30, 44 + 34 * i, 70] as const));
const box = (x0: number, x1: number): PlateCandidate => ({
  lines: [[{ x: x0, y: 25 }, { x: x1, y: 25 }, { x: x1, y: 75 }, { x: x0, y: 75 }] as Quad],
  dscore: 0.9,
});

describe('refineCandidate', () => {
  it('looks again, wider, when the close-up cut a character the first box stopped short of', async () => {
    // The first pass boxed the last five characters: the close-up cuts through the first.
    const { detector, calls } = inkDetector();
    const [refined] = await refineCandidate(image, box(54, 214), detector);
    expect(calls()).toBe(2);
    expect(refined!.closeUp).toBe(true);
    const b = quadBounds(refined!.lines[0]!);
    expect(b.x0).toBeLessThanOrEqual(21);
    expect(b.x1).toBeGreaterThanOrEqual(213);
  });

  it('looks for the whole line when asked and the box held only part of it', async () => {
    // The first pass boxed part of the second and third characters: both close-ups cut one.
    const part = box(62, 98);
    const plain = inkDetector();
    expect(await refineCandidate(image, part, plain.detector)).toEqual([part]);
    expect(plain.calls()).toBe(2);
    const { detector, calls } = inkDetector();
    const [refined] = await refineCandidate(image, part, detector, { wholeLine: true });
    expect(calls()).toBe(2);
    expect(refined!.closeUp).toBe(true);
    // The whole number, though its centre lies outside the part the first pass boxed.
    const b = quadBounds(refined!.lines[0]!);
    expect(b.x0).toBeLessThanOrEqual(21);
    expect(b.x1).toBeGreaterThanOrEqual(213);
  });

  it('places the close-up\'s boxes back on the ink they found, from a box at fractional pixels', async () => {
    // Chosen so the close-up's view is its crop unscaled (text scale 1, crop 128 x 64, clamped
    // by the image): a box found in the view maps back to the image exactly.
    const ink = picture(152, 64, [[30, 15, 148, 50]]);
    const h = 36 / 0.67;
    const candidate: PlateCandidate = {
      lines: [[{ x: 40.9, y: 5.3 }, { x: 150.3, y: 5.3 }, { x: 150.3, y: 5.3 + h }, { x: 40.9, y: 5.3 + h }] as Quad],
      dscore: 0.9,
    };
    const { detector } = inkDetector();
    const [refined] = await refineCandidate(ink, candidate, detector);
    expect(refined!.closeUp).toBe(true);
    const b = quadBounds(refined!.lines[0]!);
    expect([b.x0, b.y0, b.x1, b.y1]).toEqual([30, 15, 148, 50]);
  });

  it('looks once when the close-up finds the text', async () => {
    const { detector, calls } = inkDetector();
    const [refined] = await refineCandidate(image, box(16, 218), detector);
    expect(calls()).toBe(1);
    expect(refined!.closeUp).toBe(true);
  });

  it('cuts a tilted plate\'s close-up along its slope, and gives its line back along it', async () => {
    // Six characters 24 x 40 every 34 px, turned 12 degrees clockwise about (200, 120): a plate
    // photographed crooked. The plate detector boxes it upright (wholePlate), loosely.
    const t = (12 * Math.PI) / 180;
    const cos = Math.cos(t);
    const sin = Math.sin(t);
    const width = 400;
    const height = 240;
    const data = Buffer.alloc(width * height * 3, 230);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      const u = (x - 200) * cos + (y - 120) * sin + 100;
      const v = -(x - 200) * sin + (y - 120) * cos;
      if (u >= 0 && u < 194 && u % 34 < 24 && Math.abs(v) < 20) data.fill(30, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
    const tilted: RawImage = { data, width, height, channels: 3 };
    const plate: PlateCandidate = {
      lines: [[{ x: 95, y: 85 }, { x: 305, y: 85 }, { x: 305, y: 155 }, { x: 95, y: 155 }] as Quad],
      dscore: 0.8,
      wholePlate: true,
    };
    const { detector } = inkDetector();
    const [refined] = await refineCandidate(tilted, plate, detector, { plateText: true });
    expect(refined!.closeUp).toBe(true);
    const line = refined!.lines[0]!;
    const axis = quadAxis(line);
    expect(Math.atan2(axis.y, axis.x) / t).toBeCloseTo(1, 1);
    // As tall as the characters (40 px), not as the upright box around them (about 80 px).
    expect(quadSize(line).height).toBeGreaterThan(36);
    expect(quadSize(line).height).toBeLessThan(48);
    expect(quadSize(line).width).toBeGreaterThan(188);
  });
});

