import { afterAll, describe, expect, it } from 'vitest';
import { defaultVisionSettings, type VisionSettings, workerVisionSettings } from '../settings.js';
import { createWorkerPool } from './worker-pool.js';

describe('vision worker pools', () => {
  const settings: VisionSettings = { inferenceThreads: 1, ocrPrecision: 'fp32', ocrRecognizerThreads: 2, plateSearch: 'first-sure', plateReader: 'ppocr' };
  const pool = createWorkerPool(new URL('../../../test/fixtures/settings-echo.worker.ts', import.meta.url), 1, 'settings-echo', settings);
  afterAll(() => pool.destroy());

  it('hand their threads the settings the config gave the pool', async () => {
    expect(await pool.run({})).toEqual(settings);
  });

  it('leave a thread outside any pool on the defaults', () => {
    expect(workerVisionSettings()).toEqual(defaultVisionSettings());
  });
});
