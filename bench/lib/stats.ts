/** Small statistics helpers shared by the benchmarks. */
import path from 'node:path';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export const median = (values: number[]) => percentile(values, 50);

/** Runs `work` and measures it: wall ms and this process's CPU ms (all threads). */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const t = performance.now();
  const c = process.cpuUsage();
  const value = await work();
  const ms = performance.now() - t;
  const used = process.cpuUsage(c);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

export const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;

/** Parses `--name value` flags. */
export function flag(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** A file named by `--name`, relative to the working directory (the model loaders resolve a
 * relative name against their own asset folders). */
export function fileFlag(name: string): string | undefined {
  const file = flag(name);
  return file === undefined ? undefined : path.resolve(file);
}
