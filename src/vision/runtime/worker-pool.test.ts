import { afterAll, describe, expect, it } from 'vitest';
import { defaultVisionSettings, type VisionSettings, workerVisionSettings } from '../settings.js';
import { createWorkerPool, EngineBusyError, runTask } from './worker-pool.js';

describe('vision worker pools', () => {
  const settings: VisionSettings = { inferenceThreads: 1, ocrPrecision: 'fp32', ocrRecognizerThreads: 2, plateSearch: 'first-sure', plateReader: 'ppocr', plateDetector: 'trained', plateVehicles: 'always', stackReader: 'ppocr', identifierReader: 'ppocr', inferenceMemory: 'lean' };
  const pool = createWorkerPool(new URL('../../../test/fixtures/settings-echo.worker.ts', import.meta.url), 1, 'settings-echo', settings);
  afterAll(() => pool.destroy());

  it('hand their threads the settings the config gave the pool', async () => {
    expect(await pool.run({})).toEqual(settings);
  });

  it('leave a thread outside any pool on the defaults', () => {
    expect(workerVisionSettings()).toEqual(defaultVisionSettings());
  });

  it('turn a full queue into EngineBusyError, and run what was queued', async () => {
    const sleepy = createWorkerPool(new URL('../../../test/fixtures/sleep.worker.ts', import.meta.url), 1, 'sleepy', settings);
    try {
      // One thread: one task runs, 64 wait (threads x 64), the rest are refused at once.
      const runs = Array.from({ length: 70 }, () => runTask<number>(sleepy, 'sleepy', { ms: 5 }).then(() => 'ran', (e: unknown) => e));
      const outcomes = await Promise.all(runs);
      expect(outcomes.filter((o) => o === 'ran')).toHaveLength(65);
      const refused = outcomes.filter((o) => o !== 'ran');
      expect(refused).toHaveLength(5);
      expect(refused.every((e) => e instanceof EngineBusyError)).toBe(true);
    } finally {
      await sleepy.destroy();
    }
  });
});
