import { Worker } from 'node:worker_threads';
import { type OnnxSession, type OnnxSessionOptions, runSingle } from './onnx-session.js';
import { siblingModule } from './worker-pool.js';

export interface ModelOutput { data: Float32Array; dims: readonly number[] }

/** Runs one single-input, single-output model; `parallelism` runs may progress at once. */
export interface ModelRunner {
  readonly parallelism: number;
  run(data: Float32Array, dims: readonly number[]): Promise<ModelOutput>;
  close(): Promise<void>;
}

/** A session on the calling thread: onnxruntime-node runs one call at a time per thread (two
 * sessions awaited together do not overlap), so this runner has a parallelism of 1. */
export function inThreadRunner(session: OnnxSession): ModelRunner {
  return { parallelism: 1, run: (data, dims) => runSingle(session, data, dims), close: async () => undefined };
}

interface Task { data: Float32Array; dims: readonly number[]; resolve: (o: ModelOutput) => void; reject: (e: Error) => void }

interface Slot { worker: Worker; task?: Task }

/** `size` sessions of one model, each on its own worker thread with one intra-op thread: runs
 * awaited together then proceed side by side, one per core, where one session's intra-op
 * threads gain little on the small recogniser (2 threads: 1.1 times faster for 1.5 times the
 * CPU). An input that fills its buffer is transferred to the worker: a caller must not reuse it. Threads
 * keep the process alive only while they have work. */
export function createSessionPool(file: string, size: number, options: OnnxSessionOptions = {}): ModelRunner {
  const queue: Task[] = [];
  const slots: Slot[] = [];
  let closed = false;

  const spawn = (): Slot => {
    const module = siblingModule(import.meta.url, 'session-pool.worker');
    const fromSource = module.pathname.endsWith('.ts');
    const worker = new Worker(fromSource ? new URL('./ts-worker-bootstrap.mjs', import.meta.url) : module, {
      workerData: { file, options: { ...options, intraOpNumThreads: 1 } },
      env: { ...process.env, VIGIL_WORKER_TARGET: module.href },
    });
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (m: { data?: Float32Array; dims?: number[]; error?: string }) => {
      const task = slot.task!;
      slot.task = undefined;
      worker.unref();
      if (m.error !== undefined) task.reject(new Error(m.error));
      else task.resolve({ data: m.data!, dims: m.dims! });
      next();
    });
    worker.on('error', (err) => {
      // A dead thread fails its task; a fresh one takes its place on the next run.
      slot.task?.reject(err);
      slot.task = undefined;
      slots.splice(slots.indexOf(slot), 1);
      next();
    });
    return slot;
  };

  const next = () => {
    while (queue.length > 0 && !closed) {
      let slot = slots.find((s) => !s.task);
      if (!slot && slots.length < size) slots.push((slot = spawn()));
      if (!slot) return;
      const task = queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage({ data: task.data, dims: [...task.dims] }, [task.data.buffer as ArrayBuffer]);
    }
  };

  return {
    parallelism: size,
    run(data, dims) {
      if (closed) return Promise.reject(new Error('session pool is closed'));
      return new Promise<ModelOutput>((resolve, reject) => {
        // Only a buffer the input fills on its own is handed over whole.
        const own = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : data.slice();
        queue.push({ data: own, dims, resolve, reject });
        next();
      });
    },
    async close() {
      closed = true;
      for (const t of queue.splice(0)) t.reject(new Error('session pool is closed'));
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
