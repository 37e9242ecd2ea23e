/**
 * npm run bench:ocr-ab -- --base REV [--sets containers-gate,containers-yard,odometers] [--limit N] [--data DIR] [--diffs]
 *
 * Paired A/B of the OCR readers, as bench:plates-ab is of the plate pipeline: A is git revision
 * REV (a temporary worktree), B this working tree, each with its own engine, every photo read by
 * both in alternating order. Per set: exact codes or readings of A and B (as bench:ocr counts
 * them: containers-gate the labeled code, containers-yard every code, odometers the reliable
 * labels), median ms and CPU ms per photo (decode included), B/A of the medians and per photo,
 * and the photos read differently (any value, label or confidence to three places; `--diffs`
 * lists them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OcrType, TextReading } from '../src/vision/ocr/ocr.types.js';
import { decodeForRecognition } from '../src/vision/image/decode.js';
import { createOcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { readText } from '../src/vision/ocr/readers/text-reader.js';
import { baseRevision, checkoutAt, pairedRuns, timingColumns } from './lib/ab.js';
import { flag } from './lib/stats.js';

const base = baseRevision(flag, 'bench:ocr-ab');
const data = flag('data', path.resolve(import.meta.dirname, '../../shared/datasets'))!;
const wanted = flag('sets', 'containers-gate,containers-yard,odometers')!.split(',');
const limit = Number(flag('limit', '0'));
const listDiffs = process.argv.includes('--diffs');

type Read = (image: Parameters<typeof readText>[2], type: OcrType) => Promise<TextReading[]>;
const checkout = checkoutAt(base);
const baseEngine = await checkout.load<typeof import('../src/vision/ocr/ocr-engine.js')>('src/vision/ocr/ocr-engine.js');
const baseReaders = await checkout.load<typeof import('../src/vision/ocr/readers/text-reader.js')>('src/vision/ocr/readers/text-reader.js');
const [engineA, engineB] = await Promise.all([baseEngine.createOcrEngine(), createOcrEngine()]);
const readers: Record<'a' | 'b', Read> = {
  a: (image, type) => baseReaders.readText(engineA, type, image),
  b: (image, type) => readText(engineB, type, image),
};

/** The photos of a set with what counts as read: every code in `expect`. */
const SETS: Record<string, { type: OcrType; items: (m: Array<Record<string, unknown>>) => Array<{ file: string; expect: string[] }> }> = {
  'containers-gate': { type: 'shipping_container', items: (m) => m.map((it) => ({ file: String(it.file), expect: [String(it.code)] })) },
  'containers-yard': { type: 'shipping_container', items: (m) => m.map((it) => ({ file: String(it.file), expect: it.codes as string[] })) },
  odometers: { type: 'odometer', items: (m) => m.filter((it) => it.reliable === true).map((it) => ({ file: String(it.file), expect: [String(it.reading)] })) },
};

const fingerprint = (r: TextReading[]) => JSON.stringify(r.map((t) => [t.value, t.label, Math.round(t.confidence * 1000)]));
const listed = (r: TextReading[]) => r.map((t) => `${t.value}${t.label ? ` (${t.label})` : ''}`).join(', ') || '-';

console.log(`OCR A/B: A ${base} (${checkout.name}), B this working tree; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const name of wanted) {
  const set = SETS[name];
  if (!set) throw new Error(`no OCR set ${name}; sets: ${Object.keys(SETS).join(', ')}`);
  const manifest = path.join(data, name, 'manifest.json');
  if (!fs.existsSync(manifest)) {
    console.log(`${name.padEnd(16)} (no data)`);
    continue;
  }
  const all = set.items(JSON.parse(fs.readFileSync(manifest, 'utf8')).items);
  const items = limit > 0 ? all.slice(0, limit) : all;
  const bytes = items.map((it) => fs.readFileSync(path.join(data, name, it.file)));
  for (const k of ['a', 'b'] as const) await readers[k](await decodeForRecognition(bytes[0]!, { maxSide: 2048 }), set.type);
  const read = (k: 'a' | 'b') => async (i: number) => readers[k](await decodeForRecognition(bytes[i]!, { maxSide: 2048 }), set.type);
  const runs = await pairedRuns(items.length, { a: read('a'), b: read('b') }, fingerprint);
  const expected = items.reduce((n, it) => n + it.expect.length, 0);
  const exact = (results: TextReading[][]) => {
    const hits = results.reduce((n, r, i) => n + items[i]!.expect.filter((want) => r.some((t) => t.value.replace(/\s/g, '') === want.replace(/\s/g, ''))).length, 0);
    return `${hits}/${expected}`;
  };
  console.log(`${name.padEnd(16)} n=${String(items.length).padStart(3)}  exact A ${exact(runs.results.a)} B ${exact(runs.results.b)}  ${timingColumns(runs)}`);
  if (listDiffs) for (const i of runs.differ) console.log(`  ${items[i]!.file}: A ${listed(runs.results.a[i]!)} | B ${listed(runs.results.b[i]!)}`);
}
