/**
 * npm run bench:plates-ab -- --base REV [--sets scenes-us,scenes-br] [--modes normal,fast] [--limit N] [--data DIR] [--long-side N] [--jpeg-quality Q] [--grey] [--diffs]
 *
 * Paired A/B of the plate pipeline: A is git revision REV (checked out in a temporary worktree),
 * B this checkout's working tree, each with its own OCR engine, in one process. Every photo is
 * read by both, in alternating order, so a machine whose load drifts weighs on both alike (ms on
 * this machine drift by up to 2x between days: a figure is only worth its baseline of the same
 * run). Per set and mode: the O/0-I/1 rate of A and B, median ms and CPU ms per photo, B/A of
 * the medians and the median of B/A per photo, and how many photos read differently (a plate, a
 * score or a candidate; `--diffs` lists them). Copies as in bench:plates (`--long-side`,
 * `--jpeg-quality`, `--grey`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RawImage } from '../src/vision/image/decode.js';
import { decodeImage } from '../src/vision/image/decode.js';
import type { PlateReadOptions, PlateReadResult } from '../src/services/recognition/plate-reader.port.js';
import { createOcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { createPlatePipeline } from '../src/vision/plates/plate-pipeline.js';
import { copyOptionsFromArgs, describeCopies, photoCopy } from './lib/plate-copies.js';
import { looseKey } from './lib/plates-bench-metrics.js';
import { DEFAULT_DATA_DIR, loadPlateSets } from './lib/plates-dataset.js';
import { flag, median } from './lib/stats.js';

const base = flag('base');
if (!base) {
  console.error('bench:plates-ab needs --base REV (a commit, branch or tag to compare this checkout with)');
  process.exit(2);
}
const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const wanted = flag('sets', 'scenes-us,scenes-br')!.split(',');
const modes = flag('modes', 'normal,fast')!.split(',') as Array<PlateReadOptions['mode']>;
const limit = Number(flag('limit', '0'));
const listDiffs = process.argv.includes('--diffs');
const copies = copyOptionsFromArgs(flag);

interface Reader { read(image: RawImage, options: PlateReadOptions): Promise<PlateReadResult> }

const repo = path.resolve(import.meta.dirname, '..');
const tree = mkdtempSync(path.join(os.tmpdir(), 'vigil-ab-'));
const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
const removeTree = () => {
  try {
    git('worktree', 'remove', '--force', tree);
  } catch {
    rmSync(tree, { recursive: true, force: true });
  }
};
process.on('exit', removeTree);
process.on('SIGINT', () => process.exit(130));

/** Revision `rev`'s own engine and pipeline, from a worktree sharing this checkout's packages. */
async function pipelineAt(rev: string): Promise<Reader> {
  git('worktree', 'add', '--detach', '--quiet', tree, rev);
  symlinkSync(path.join(repo, 'node_modules'), path.join(tree, 'node_modules'));
  const at = (file: string) => pathToFileURL(path.join(tree, file)).href;
  const engine = await import(at('src/vision/ocr/ocr-engine.js')) as typeof import('../src/vision/ocr/ocr-engine.js');
  const plates = await import(at('src/vision/plates/plate-pipeline.js')) as typeof import('../src/vision/plates/plate-pipeline.js');
  return plates.createPlatePipeline(await engine.createOcrEngine());
}

const readers: Record<'a' | 'b', Reader> = {
  a: await pipelineAt(base),
  b: createPlatePipeline(await createOcrEngine()),
};
const baseName = git('rev-parse', '--short', base);

const options = (mode: PlateReadOptions['mode']): PlateReadOptions => ({
  regions: [], strictRegion: false, textFormats: [], mode, thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: false,
});

/** What a reading returns that a change could move: plates, scores, candidates. */
const fingerprint = (r: PlateReadResult) => JSON.stringify(r.plates.map((p) => [p.plate, p.score, p.candidates]));

console.log(`plates A/B: A ${base} (${baseName}), B this working tree; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}${describeCopies(copies)}`);
const sets = await loadPlateSets(dataDir);
for (const name of wanted) {
  const all = sets[name];
  if (!all) throw new Error(`no plate set ${name}; sets: ${Object.keys(sets).join(', ')}`);
  const samples = limit > 0 ? all.slice(0, limit) : all;
  const photos = await Promise.all(samples.map(async (s) => (await photoCopy(s.file, copies)).bytes));
  for (const mode of modes) {
    // Warm-up: first runs allocate the sessions' buffers.
    for (const r of Object.values(readers)) await r.read(await decodeImage(photos[0]!), options(mode));
    const ms = { a: [] as number[], b: [] as number[] };
    const cpu = { a: [] as number[], b: [] as number[] };
    const hits = { a: 0, b: 0 };
    const differ: string[] = [];
    for (const [i, bytes] of photos.entries()) {
      const results: Partial<Record<'a' | 'b', PlateReadResult>> = {};
      for (const k of i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
        const t = performance.now();
        const c = process.cpuUsage();
        results[k] = await readers[k].read(await decodeImage(bytes), options(mode));
        ms[k].push(performance.now() - t);
        const used = process.cpuUsage(c);
        cpu[k].push((used.user + used.system) / 1000);
        if (results[k]!.plates.some((p) => looseKey(p.plate) === looseKey(samples[i]!.plate))) hits[k]++;
      }
      if (fingerprint(results.a!) !== fingerprint(results.b!)) {
        differ.push(`  ${samples[i]!.plate}: A ${results.a!.plates.map((p) => `${p.plate} ${p.score}`).join(', ') || '-'} | B ${results.b!.plates.map((p) => `${p.plate} ${p.score}`).join(', ') || '-'}`);
      }
    }
    const pct = (n: number) => `${((n / photos.length) * 100).toFixed(1)}%`;
    const ratios = ms.b.map((v, i) => v / ms.a[i]!);
    console.log(`${`${name} ${mode}`.padEnd(20)} n=${String(photos.length).padStart(3)}  O0/I1 A ${pct(hits.a)} B ${pct(hits.b)}  median ms A ${median(ms.a).toFixed(0)} B ${median(ms.b).toFixed(0)} (B/A ${(median(ms.b) / median(ms.a)).toFixed(2)}, per photo ${median(ratios).toFixed(2)})  cpu A ${median(cpu.a).toFixed(0)} B ${median(cpu.b).toFixed(0)}  read differently ${differ.length}`);
    if (listDiffs) for (const d of differ) console.log(d);
  }
}
