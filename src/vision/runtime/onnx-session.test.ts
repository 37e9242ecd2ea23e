import { describe, expect, it } from 'vitest';
import { createOnnxSession, OCR_MODEL_FILES, runSingle, sessionOptions } from './onnx-session.js';

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
});
