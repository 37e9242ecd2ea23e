import { beforeAll, describe, expect, it } from 'vitest';
import { dashboardImage } from '../../../../test/fixtures/text-images.js';
import { decodeImage } from '../../image/decode.js';
import { createOcrEngine, type OcrEngine } from '../ocr-engine.js';
import { readOdometer } from './odometer-reader.js';

/** The odometer reader on the PP-OCR engine, on rendered dashboards. */
describe('odometer reader', () => {
  let engine: OcrEngine;
  beforeAll(async () => {
    engine = await createOcrEngine();
  });

  it.each([
    { odometer: '048213', trip: '123.4', clock: '12:45', temperature: '21°C' },
    { odometer: '117560', trip: '2045.7', clock: '08:03', temperature: '-4°C' },
  ])('reads the odometer $odometer, not the trip meter, the clock, the temperature or the dial', async (dash) => {
    const image = await decodeImage(await dashboardImage(dash));
    const [reading, ...rest] = await readOdometer(engine, image);
    expect(rest).toEqual([]);
    expect(reading).toMatchObject({ value: dash.odometer, orientation: 'horizontal' });
    // Where it was read: the odometer window, in the lower middle of the dial.
    expect(reading!.box!.ymin).toBeGreaterThan(450);
    expect(reading!.box!.ymax).toBeLessThan(570);
  });
});
