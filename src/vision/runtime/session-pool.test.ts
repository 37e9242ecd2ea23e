import { afterAll, describe, expect, it } from 'vitest';
import { createOnnxSession, OCR_MODEL_FILES } from './onnx-session.js';
import { createSessionPool, inThreadRunner } from './session-pool.js';

/** The angle classifier that ships with the OCR models: small, quick to load. */
const MODEL = OCR_MODEL_FILES.angle;
const dims = [1, 3, 48, 192] as const;
const input = (seed: number) => Float32Array.from({ length: 3 * 48 * 192 }, (_, i) => Math.sin(i * 0.37 + seed));

describe('session pool', () => {
  const pool = createSessionPool(MODEL, { workers: 2, precision: 'fp32' });
  afterAll(() => pool.close());

  it('gives each of many runs awaited together the output of its own input, as an in-thread session does', async () => {
    const local = inThreadRunner(await createOnnxSession(MODEL, { precision: 'fp32', intraOpNumThreads: 1 }));
    const seeds = [0, 1, 2, 3, 4, 5, 6];
    const pooled = await Promise.all(seeds.map((s) => pool.run(input(s), dims)));
    for (const [k, s] of seeds.entries()) {
      const expected = await local.run(input(s), dims);
      expect(pooled[k]!.dims).toEqual(expected.dims);
      expect([...pooled[k]!.data]).toEqual([...expected.data]);
    }
  });

  it('takes an input that is a view of a larger buffer without detaching that buffer', async () => {
    const whole = new Float32Array(2 * 3 * 48 * 192);
    const view = whole.subarray(3 * 48 * 192);
    await pool.run(view, dims);
    expect(whole.length).toBe(2 * 3 * 48 * 192);
    expect(view.length).toBe(3 * 48 * 192);
  });

  it('rejects a run the model refuses and keeps serving the next ones', async () => {
    await expect(pool.run(new Float32Array(5), [1, 5])).rejects.toThrow();
    expect((await pool.run(input(9), dims)).dims).toEqual([1, 2]);
  });

  it('shares the runs between worker threads and a session on the calling thread', async () => {
    const local = await createOnnxSession(MODEL, { precision: 'fp32', intraOpNumThreads: 1 });
    let localRuns = 0;
    const counted = new Proxy(local, {
      get: (target, key) => (key === 'run' ? (...args: Parameters<typeof local.run>) => (localRuns++, target.run(...args)) : Reflect.get(target, key)),
    });
    const mixed = createSessionPool(MODEL, { workers: 1, local: counted, precision: 'fp32' });
    try {
      const seeds = [0, 1, 2, 3];
      const outs = await Promise.all(seeds.map((s) => mixed.run(input(s), dims)));
      for (const [k, s] of seeds.entries()) expect([...outs[k]!.data]).toEqual([...(await inThreadRunner(local).run(input(s), dims)).data]);
      expect(localRuns).toBeGreaterThan(0);
      expect(localRuns).toBeLessThan(seeds.length);
    } finally {
      await mixed.close();
    }
  });

  it('refuses runs once closed', async () => {
    const closed = createSessionPool(MODEL, { workers: 1, precision: 'fp32' });
    await closed.run(input(1), dims);
    await closed.close();
    await expect(closed.run(input(1), dims)).rejects.toThrow(/closed/);
  });
});
