import { Worker } from 'node:worker_threads';
import { type OnnxSession, type OnnxSessionOptions, runSingle } from './onnx-session.js';
import { siblingModule } from './worker-pool.js';

export interface ModelOutput { data: Float32Array; dims: readonly number[] }

/** Runs one single-input, single-output model. */
export interface ModelRunner {
  run(data: Float32Array, dims: readonly number[]): Promise<ModelOutput>;
  close(): Promise<void>;
}

/** A session on the calling thread: onnxruntime-node runs one call at a time per thread (two
 * sessions awaited together do not overlap), so this runner's runs take turns. */
export function inThreadRunner(session: OnnxSession): ModelRunner {
  return { run: (data, dims) => runSingle(session, data, dims), close: async () => undefined };
}

interface Task { data: Float32Array; dims: readonly number[]; resolve: (o: ModelOutput) => void; reject: (e: Error) => void }

interface Slot { worker: Worker; task?: Task }

export interface SessionPoolOptions extends OnnxSessionOptions {
  /** Sessions on worker threads of their own, one intra-op thread each. */
  workers: number;
  /** A session on the calling thread that takes its share of the runs: it needs no hand-over,
   * so on a busy machine, when a worker thread waits for a core, the calling thread goes on
   * with the next runs instead of waiting for it. */
  local?: OnnxSession;
}

/** Sessions of one model that run side by side: `workers` on worker threads, plus `local` on
 * the calling thread. One session's intra-op threads gain little on the small recogniser (2
 * threads: 1.1 times faster for 1.5 times the CPU); sessions on separate threads run one input
 * per core. Each free worker takes the next queued run first, then the local session does. An
 * input a worker takes is transferred when it fills its buffer: a caller must not reuse it.
 * Worker threads keep the process alive only while they have work. */
export function createSessionPool(file: string, options: SessionPoolOptions): ModelRunner {
  const { workers: size, local, ...sessionOptions } = options;
  const queue: Task[] = [];
  const slots: Slot[] = [];
  let localBusy = false;
  let closed = false;

  const spawn = (): Slot => {
    const module = siblingModule(import.meta.url, 'session-pool.worker');
    const fromSource = module.pathname.endsWith('.ts');
    const worker = new Worker(fromSource ? new URL('./ts-worker-bootstrap.mjs', import.meta.url) : module, {
      workerData: { file, options: { ...sessionOptions, intraOpNumThreads: 1 } },
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

  const toWorker = (slot: Slot, task: Task) => {
    slot.task = task;
    slot.worker.ref();
    // Only a buffer the input fills on its own is handed over whole.
    const data = task.data.byteOffset === 0 && task.data.byteLength === task.data.buffer.byteLength ? task.data : task.data.slice();
    slot.worker.postMessage({ data, dims: [...task.dims] }, [data.buffer as ArrayBuffer]);
  };

  const runLocal = (session: OnnxSession, task: Task) => {
    localBusy = true;
    runSingle(session, task.data, task.dims).then(task.resolve, task.reject).finally(() => {
      localBusy = false;
      next();
    });
  };

  const next = () => {
    while (queue.length > 0 && !closed) {
      let slot = slots.find((s) => !s.task);
      if (!slot && slots.length < size) slots.push((slot = spawn()));
      if (slot) toWorker(slot, queue.shift()!);
      else if (local && !localBusy) runLocal(local, queue.shift()!);
      else return;
    }
  };

  return {
    run(data, dims) {
      if (closed) return Promise.reject(new Error('session pool is closed'));
      return new Promise<ModelOutput>((resolve, reject) => {
        queue.push({ data, dims, resolve, reject });
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
