import { parentPort, workerData } from 'node:worker_threads';
import { createOnnxSession, type OnnxSessionOptions, runSingle } from './onnx-session.js';

/** One model session on its own thread (see session-pool.ts): inputs in, outputs out, both as
 * transferred buffers. */
const { file, options } = workerData as { file: string; options: OnnxSessionOptions };
const session = createOnnxSession(file, options);
// Reported once, in the first reply: the session failing to load fails every run anyway.
session.catch(() => undefined);

parentPort!.on('message', async ({ data, dims }: { data: Float32Array; dims: number[] }) => {
  try {
    const out = await runSingle(await session, data, dims);
    const copy = out.data.byteOffset === 0 && out.data.byteLength === out.data.buffer.byteLength ? out.data : out.data.slice();
    parentPort!.postMessage({ data: copy, dims: [...out.dims] }, [copy.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});
