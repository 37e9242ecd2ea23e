import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, percentile, timed } from './stats.js';

const repo = path.resolve(import.meta.dirname, '../..');
const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();

/** Git revision `rev` checked out in a temporary worktree sharing this checkout's packages
 * (removed when the process exits): `load` imports one of its modules, e.g.
 * `src/vision/ocr/ocr-engine.js`. */
export function checkoutAt(rev: string): { name: string; load<T>(file: string): Promise<T> } {
  const tree = mkdtempSync(path.join(os.tmpdir(), 'vigil-ab-'));
  git('worktree', 'add', '--detach', '--quiet', tree, rev);
  process.on('exit', () => {
    try {
      git('worktree', 'remove', '--force', tree);
    } catch {
      rmSync(tree, { recursive: true, force: true });
    }
  });
  process.on('SIGINT', () => process.exit(130));
  symlinkSync(path.join(repo, 'node_modules'), path.join(tree, 'node_modules'));
  return {
    name: git('rev-parse', '--short', rev),
    load: async <T>(file: string) => (await import(pathToFileURL(path.join(tree, file)).href)) as T,
  };
}

/** `--base REV` or an exit with the way to call the bench. */
export function baseRevision(flag: (name: string) => string | undefined, bench: string): string {
  const base = flag('base');
  if (base) return base;
  console.error(`${bench} needs --base REV (a commit, branch or tag to compare this checkout with)`);
  process.exit(2);
}

export interface PairedRuns<R> {
  ms: { a: number[]; b: number[] };
  cpu: { a: number[]; b: number[] };
  results: { a: R[]; b: R[] };
  /** Items whose results' fingerprints differ. */
  differ: number[];
}

/** Runs every item on both sides, A first for even items and B first for odd ones, so a machine
 * whose load drifts weighs on both alike; wall and process CPU ms per run. */
export async function pairedRuns<R>(count: number, sides: Record<'a' | 'b', (item: number) => Promise<R>>, fingerprint: (r: R) => string): Promise<PairedRuns<R>> {
  const out: PairedRuns<R> = { ms: { a: [], b: [] }, cpu: { a: [], b: [] }, results: { a: [], b: [] }, differ: [] };
  for (let i = 0; i < count; i++) {
    for (const k of i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
      const run = await timed(() => sides[k](i));
      out.results[k][i] = run.value;
      out.ms[k].push(run.ms);
      out.cpu[k].push(run.cpuMs);
    }
    if (fingerprint(out.results.a[i]!) !== fingerprint(out.results.b[i]!)) out.differ.push(i);
  }
  return out;
}

/** The timing half of an A/B row: medians, B/A of the medians and per item, CPU, differences. */
export function timingColumns(runs: PairedRuns<unknown>): string {
  const { ms, cpu } = runs;
  const ratios = ms.b.map((v, i) => v / ms.a[i]!);
  // The tail beside the median: a change that spares the slowest photos leaves the median alone.
  const p90 = (v: number[]) => percentile(v, 90).toFixed(0);
  return `median ms A ${median(ms.a).toFixed(0)} B ${median(ms.b).toFixed(0)} (B/A ${(median(ms.b) / median(ms.a)).toFixed(2)}, per item ${median(ratios).toFixed(2)})  p90 A ${p90(ms.a)} B ${p90(ms.b)}  cpu A ${median(cpu.a).toFixed(0)} B ${median(cpu.b).toFixed(0)}  read differently ${runs.differ.length}`;
}
