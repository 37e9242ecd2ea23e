import { describe, expect, it } from 'vitest';
import { createOnnxSession, OCR_MODEL_FILES, runSingle, sessionOptions, VIGIL_MODEL_FILES } from './onnx-session.js';

describe('sessionOptions', () => {
  const spinning = (o: ReturnType<typeof sessionOptions>) => (o.extra as { session: { intra_op: { allow_spinning: string } } }).session.intra_op.allow_spinning;

  it('lets idle inference threads sleep unless spinning is asked for', () => {
    expect(spinning(sessionOptions())).toBe('0');
    expect(spinning(sessionOptions({ spinning: true }))).toBe('1');
  });

  it('onnxruntime accepts the setting: a two-thread session without spinning runs', async () => {
    const session = await createOnnxSession(OCR_MODEL_FILES.angle, { precision: 'fp32', intraOpNumThreads: 2 });
    const out = await runSingle(session, new Float32Array(2 * 3 * 48 * 192), [2, 3, 48, 192]);
    expect(out.dims).toEqual([2, 2]);
  });

  it('keeps the memory arena unless lean memory is asked for', () => {
    expect(sessionOptions().enableCpuMemArena).toBe(true);
    expect(sessionOptions({ memoryArena: false }).enableCpuMemArena).toBe(false);
  });

  it('reads the same without the arena: lean memory changes where buffers live, not the results', async () => {
    const input = Float32Array.from({ length: 3 * 48 * 160 }, (_, i) => ((i * 7919) % 256) / 255);
    const [arena, lean] = await Promise.all([true, false].map((memoryArena) => createOnnxSession(VIGIL_MODEL_FILES.plateReader, { memoryArena })));
    // Twice each: the second run of the arena session reuses its buffers.
    const outs = [];
    for (const session of [arena!, lean!, arena!, lean!]) outs.push(await runSingle(session, input.slice(), [1, 3, 48, 160]));
    expect(outs[1]!.dims).toEqual(outs[0]!.dims);
    for (const out of outs.slice(1)) expect(Array.from(out.data)).toEqual(Array.from(outs[0]!.data));
  });
});
