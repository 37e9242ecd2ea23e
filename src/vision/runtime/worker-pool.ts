import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { VisionSettings } from '../settings.js';

/** A pool of worker threads running one module's default export. Heavy image and model work
 * runs here so the HTTP event loop stays responsive. When Vigil runs from TypeScript sources
 * (tests), a small bootstrap loads them through tsx. The threads read `settings` with
 * workerVisionSettings(). */
export function createWorkerPool(workerModule: URL, threads: number, name: string, settings: VisionSettings): Piscina {
  const file = fileURLToPath(workerModule);
  const fromSource = file.endsWith('.ts');
  return new Piscina({
    filename: fromSource ? new URL('./ts-worker-bootstrap.mjs', import.meta.url).href : workerModule.href,
    name: 'default',
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 60_000,
    // Bounded queue: backpressure instead of unbounded memory when analysis falls behind.
    maxQueue: threads * 64,
    env: { ...process.env, VIGIL_WORKER: name, VIGIL_WORKER_TARGET: workerModule.href },
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
    workerData: { root: path.dirname(file), settings },
  });
}

/** Thrown when a pool's queue is full: the machine is busy, not broken, and the caller should
 * try again shortly (recognition answers 503 with Retry-After). */
export class EngineBusyError extends Error {
  override name = 'EngineBusyError';
  constructor(readonly pool: string) {
    super(`the ${pool} engine's queue is full`);
  }
}

/** Runs one task; a full queue becomes EngineBusyError (piscina rejects with a plain Error). */
export async function runTask<T>(pool: Piscina, name: string, task: unknown): Promise<T> {
  try {
    return (await pool.run(task)) as T;
  } catch (err) {
    if (err instanceof Error && err.message === 'Task queue is at limit') throw new EngineBusyError(name);
    throw err;
  }
}

/** The sibling module with the same extension as the calling module (.ts in tests, .js built). */
export function siblingModule(callerUrl: string, basename: string): URL {
  const ext = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${basename}${ext}`, callerUrl);
}
