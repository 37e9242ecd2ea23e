import type { InferenceMemory } from '../settings.js';

/** glibc raises its mmap threshold to the largest block freed so far, so with the arena off
 * the buffers of one large photo stay in the heap after the run: lean memory holds more, not
 * less, unless the operator fixes the threshold before the process starts (glibc reads it once,
 * at start). A 4 MB threshold keeps small blocks in the heap, where they are quick to reuse:
 * 1 MB held a little less and read containers slower, 16 MB held much more (2026-11-28, one
 * process reading plates, containers and a 2,600 px photo: about 260, 300 and 400 MB; with the
 * arena 555 MB, lean without the threshold 533 MB). */
export const LEAN_MEMORY_ENV = 'MALLOC_MMAP_THRESHOLD_';
export const LEAN_MEMORY_THRESHOLD = '4194304';

/** The C library this process runs on, from Node's own report (undefined off glibc: musl, macOS). */
export function glibcVersion(): string | undefined {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime;
}

/** A warning for the start-up log when INFERENCE_MEMORY=lean cannot do what it is for. The C
 * library is asked only then: Node builds a whole diagnostic report to tell. */
export function leanMemoryWarning(memory: InferenceMemory, env: NodeJS.ProcessEnv, glibc: () => string | undefined = glibcVersion): string | undefined {
  if (memory !== 'lean' || env[LEAN_MEMORY_ENV] || glibc() === undefined) return undefined;
  return `INFERENCE_MEMORY=lean needs ${LEAN_MEMORY_ENV}=${LEAN_MEMORY_THRESHOLD} in the environment (glibc reads it at start): without it freed model buffers stay in the heap and the process holds more memory than with the arena`;
}
