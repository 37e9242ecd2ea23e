import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { quadBounds } from '../image/quad.js';
import type { DetectedPlate } from './plate-detector-model.js';
import { MODES } from './plate-modes.js';
import type { PlateOcr } from './plate-pipeline.js';
import type { PlateReadOptions } from './plate.types.js';
import { passCandidates } from './pass-candidates.js';

const photo: RawImage = { data: Buffer.alloc(1280 * 720 * 3, 128), width: 1280, height: 720, channels: 3 };

/** A text detector that finds one line in the middle of whatever close-up it is shown. */
const ocr: PlateOcr = {
  detect: async (image) => [{
    score: 0.9,
    quad: [{ x: 0.3 * image.width, y: 0.4 * image.height }, { x: 0.7 * image.width, y: 0.4 * image.height }, { x: 0.7 * image.width, y: 0.7 * image.height }, { x: 0.3 * image.width, y: 0.7 * image.height }],
  }],
  recognizeCrops: async () => [],
};

const options = { mode: 'fast', thresholdD: 0.2 } as PlateReadOptions;
const pass = MODES.fast.detectorPasses![0]!;
const plate = (width: number): DetectedPlate => ({ box: { xmin: 600, ymin: 300, xmax: 600 + width, ymax: 350 }, score: 0.9 });
const widths = async (found: DetectedPlate) =>
  (await passCandidates(photo, pass, { ocr, detectedPlates: [found] }, options, [], [])).map((c) => Math.round(quadBounds(c.lines.flat()).x1 - quadBounds(c.lines.flat()).x0));

describe('plate detector candidates', () => {
  it('a squarish plate (2:1, North American) is read as its close-up line and as the whole box', async () => {
    const found = await widths(plate(100));
    expect(found).toHaveLength(2);
    expect(found[0]).toBeLessThan(100); // the close-up's line
    expect(found[1]).toBe(100); // the whole plate
  });

  it('a long plate (4.7:1, European) is read as its close-up line alone', async () => {
    const found = await widths(plate(235));
    expect(found).toHaveLength(1);
    expect(found[0]).toBeLessThan(235);
  });

  it('its close-up lines and its whole box carry the plate box\'s shape, which names the region of a wide font', async () => {
    const found = await passCandidates(photo, pass, { ocr, detectedPlates: [plate(155)] }, options, [], []);
    expect(found.length).toBeGreaterThan(0);
    for (const c of found) expect(c.plateAspect).toBeCloseTo(3.1);
  });
});
