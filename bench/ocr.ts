/**
 * npm run bench:ocr [-- --data DIR --limit N --only SET,SET --misses --vins N --trailers N --no-tesseract --precision fp32|fused --second-out DIR --second-from DIR --second-draw N --second-draws A-B --engine-cache DIR --stack-reader trained|ppocr --stack-model FILE --identifier-reader trained|trained-fp32|ppocr --identifier-model FILE]
 *
 * Accuracy and speed of the OCR types on real photos (containers-gate, containers-yard,
 * odometers with reliable labels) and on VIN, trailer ID and boat number images synthesized
 * deterministically (bench/lib/ocr-synthetic.ts). Exact-match rate, median and p95 ms per image
 * and median process CPU ms per image (all threads: steadier than ms when the machine is busy)
 * (decode included, engine loaded once). Where the `tesseract` command is installed, the same
 * readers run on Tesseract's words (bench/lib/tesseract-engine.ts) and its figures are printed
 * beside Vigil's.
 *
 * Sets: containers-gate, containers-yard, odometers, odometers-rows, vins-na, vins-iso, trailers-h, trailers-v,
 * boats, and from the second generator (bench/lib/ocr-synthetic-second.ts, never tuned on)
 * vins-second, trailers-h-second, trailers-v-second, boats-second (--second-draw N: other seeds, a
 * fresh draw of the same size, for a change made after looking at the quoted draw's misses;
 * --second-out DIR writes a draw's images and expected values, --second-from DIR reads them back
 * instead of drawing; --engine-cache DIR keeps the OCR engines' answers there, so that draws read
 * again after a change to the readers alone take seconds); odometers-rows (unlabelled odometers: is the reading one of the photo's digit rows) only
 * when named in --only. --misses prints every miss with what was read; `wrong` counts the answers
 * that are none of the expected values (a wrong VIN is worse than none). Odometers are also
 * counted right apart from a trailing tenths wheel, and per half of the set (content hash).
 * --stack-reader ppocr reads stacked characters with PP-OCR alone (the server's STACK_READER);
 * --stack-model FILE reads them with that stack reader (training/vigil_train/train_stacks.py).
 * --identifier-reader ppocr reads trailer IDs' and VINs' flat lines with PP-OCR alone (the server's
 * IDENTIFIER_READER); --identifier-model FILE reads them beside PP-OCR with that identifier
 * reader (training/vigil_train/train_ids.py) in place of the shipped one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OcrType } from '../src/vision/ocr/ocr.types.js';
import { decodeForRecognition } from '../src/vision/image/decode.js';
import { parseOcrPrecision } from '../src/vision/runtime/model-variants.js';
import { createOcrEngine, type OcrEngine, withSecondLineReader, withStackReader } from '../src/vision/ocr/ocr-engine.js';
import { createStackReader, parseStackReader } from '../src/vision/ocr/stack-reader.js';
import { createIdentifierReader, identifierPrecision, parseIdentifierReader, readsWithSecondLineReader } from '../src/vision/ocr/identifier-reader.js';
import { readText } from '../src/vision/ocr/readers/text-reader.js';
import { type SyntheticCase, syntheticSets } from './lib/ocr-synthetic.js';
import { type SecondSyntheticSets, secondSyntheticSets } from './lib/ocr-synthetic-second.js';
import { iou } from './lib/boxes.js';
import { splitOf } from './lib/plates-dataset.js';
import { flag, median, percentile } from './lib/stats.js';
import { createTesseractEngine, tesseractVersion } from './lib/tesseract-engine.js';
import { engineCache, engineVersion } from './lib/engine-cache.js';

const data = flag('data', path.resolve(import.meta.dirname, '../../shared/datasets'))!;
const limit = Number(flag('limit', '1000'));
const only = flag('only')?.split(',').map((s) => s.trim());
const showMisses = process.argv.includes('--misses');
const vinCount = Number(flag('vins', '100'));
// Synthetic trailer IDs, split between horizontal and stacked vertical ones.
const trailerCount = Number(flag('trailers', '20'));
// --precision fp32|fused: which graph the OCR models run (default: OCR_PRECISION, else fused).
const precision = parseOcrPrecision(flag('precision') ?? process.env.OCR_PRECISION);
const stackModel = flag('stack-model');
const identifierModel = flag('identifier-model');
// --engine-cache DIR: the engines' answers kept there (bench/lib/engine-cache.ts), for reading
// draws again after a change to the readers alone.
const cacheDir = flag('engine-cache');

const stackChoice = parseStackReader(flag('stack-reader') ?? process.env.STACK_READER);
const identifierChoice = parseIdentifierReader(flag('identifier-reader') ?? process.env.IDENTIFIER_READER);
// The models' files, or which shipped graph, are part of what the cached answers depend on.
const cache = cacheDir ? engineCache(path.resolve(cacheDir), engineVersion({
  precision,
  stackModel: stackModel ? path.resolve(stackModel) : stackChoice,
  identifierModel: identifierModel ? path.resolve(identifierModel) : identifierChoice,
})) : undefined;
const ppocr = await createOcrEngine({ precision }).then((e) => cache?.ocr(e) ?? e);
// As the server reads identifiers: with the stack reader unless --stack-reader ppocr (default:
// STACK_READER); --stack-model FILE reads columns with that model in place of the shipped one.
const engine = stackChoice !== 'ppocr'
  ? withStackReader(ppocr, await createStackReader({ file: stackModel ? path.resolve(stackModel) : undefined }).then((r) => cache?.stacks(r) ?? r))
  : ppocr;
// As the server reads trailer IDs and VINs: with the identifier reader beside PP-OCR on lines that lie
// flat unless --identifier-reader ppocr (default: IDENTIFIER_READER); --identifier-model FILE
// in place of the shipped one.
const fusedEngine = identifierChoice !== 'ppocr'
  ? withSecondLineReader(engine, await createIdentifierReader({ precision: identifierPrecision(identifierChoice), file: identifierModel ? path.resolve(identifierModel) : undefined }).then((r) => cache?.lines(r) ?? r))
  : engine;
const engineFor = (type: OcrType) => (readsWithSecondLineReader(type) ? fusedEngine : engine);
const tessVersion = process.argv.includes('--no-tesseract') ? undefined : tesseractVersion();
const tess = tessVersion ? createTesseractEngine() : undefined;

/** anyOf: one hit when any of `expect` is read (an unreliable odometer's digit rows). */
type Case = SyntheticCase & {
  anyOf?: boolean;
  /** Where the expected code is painted (x0, y0, x1, y1): the box a reading of it should give. */
  box?: readonly number[];
  /** The size and type code painted beside it, where labeled. */
  sizeType?: string;
  /** The half of the dev set it falls in (content hash, as the plate sets): counted per half. */
  half?: 'fit' | 'held';
  /** An odometer: also counted right when it differs only by a trailing tenths wheel. */
  tenths?: boolean;
};
/** ms: wall clock per image; cpu: process CPU per image (all threads), steadier on a busy machine. */
interface Outcome {
  hits: number; expected: number; ms: number[]; cpu: number[]; misses: string[];
  /** IoU of each hit's box with the labeled one (cases with a box). */
  ious: number[];
  sizeTypes: { hits: number; expected: number };
  /** Per dev half, and read right apart from a tenths wheel (odometers). */
  halves: Record<string, { hits: number; tenthsFree: number; expected: number }>;
  tenthsFreeHits: number;
  /** Answers given that are none of the expected values (the identifier, not its other fields): a wrong
   * VIN is worse than none, which tells the user to take the photo again. */
  wrong: number;
}

/** The same odometer reading once a trailing tenths wheel is left out of either or both: the
 * labels include the wheel or not, and a wheel caught half turned shows either of two digits. */
export function sameWithoutTenths(read: string, label: string): boolean {
  const drop = (v: string) => v.slice(0, -1);
  if (read === label || drop(read) === label || read === drop(label)) return true;
  return read.length === label.length && read.length >= 5 && drop(read) === drop(label);
}


async function measure(e: OcrEngine, type: OcrType, cases: Case[]): Promise<Outcome> {
  const o: Outcome = { hits: 0, expected: 0, ms: [], cpu: [], misses: [], ious: [], sizeTypes: { hits: 0, expected: 0 }, halves: {}, tenthsFreeHits: 0, wrong: 0 };
  for (const c of cases) {
    const t = performance.now();
    const c0 = process.cpuUsage();
    let error: string | undefined;
    const results = await decodeForRecognition(c.bytes, { maxSide: 2048 }).then((img) => readText(e, type, img), (err: Error) => {
      error = err.message;
      return [];
    });
    o.ms.push(performance.now() - t);
    const c1 = process.cpuUsage(c0);
    o.cpu.push((c1.user + c1.system) / 1000);
    const got = new Set(results.map((r) => r.value.replace(/\s/g, '')));
    const wanted = new Set(c.expect.map((w) => w.replace(/\s/g, '')));
    // The identifier itself: a container's size and type code and its weights are other fields.
    o.wrong += results.filter((r) => (r.label === undefined || r.label === 'Serial Number') && !wanted.has(r.value.replace(/\s/g, ''))).length;
    const hit = c.box && results.find((r) => r.value.replace(/\s/g, '') === c.expect[0]);
    if (hit?.box) o.ious.push(iou(hit.box, { xmin: c.box![0]!, ymin: c.box![1]!, xmax: c.box![2]!, ymax: c.box![3]! }));
    if (c.sizeType) {
      o.sizeTypes.expected++;
      if (results.some((r) => r.label === 'Size and Type Codes' && r.value === c.sizeType)) o.sizeTypes.hits++;
      else o.misses.push(`${c.name}: size and type ${c.sizeType}, got ${results.filter((r) => r.label === 'Size and Type Codes').map((r) => r.value).join(',') || 'nothing'}`);
    }
    if (c.anyOf) {
      o.expected++;
      if (c.expect.some((want) => got.has(want))) o.hits++;
      else o.misses.push(`${c.name}: want one of ${c.expect.join(',')}, got ${error ?? ([...got].join(',') || 'nothing')}`);
      continue;
    }
    for (const want of c.expect) {
      o.expected++;
      const hit = got.has(want.replace(/\s/g, ''));
      const tenthsFree = c.tenths === true && [...got].some((r) => sameWithoutTenths(r, want));
      if (hit) o.hits++;
      else o.misses.push(`${c.name}${c.half ? ` (${c.half})` : ''}: want ${want}, got ${error ?? ([...got].join(',') || 'nothing')}`);
      if (tenthsFree) o.tenthsFreeHits++;
      if (c.half) {
        const h = (o.halves[c.half] ??= { hits: 0, tenthsFree: 0, expected: 0 });
        h.expected++;
        if (hit) h.hits++;
        if (tenthsFree) h.tenthsFree++;
      }
    }
  }
  return o;
}

const rate = (o: Outcome) => `${o.hits}/${o.expected} = ${((100 * o.hits) / Math.max(1, o.expected)).toFixed(1).padStart(5)}%`;
const times = (o: Outcome) => `${median(o.ms).toFixed(0).padStart(5)} ${percentile(o.ms, 95).toFixed(0).padStart(6)} ${median(o.cpu).toFixed(0).padStart(6)} ${String(o.wrong).padStart(5)}`;

async function run(key: string, label: string, type: OcrType, cases: () => Promise<Case[]> | Case[]) {
  if (only && !only.includes(key)) return;
  const list = await cases();
  if (list.length === 0) return console.log(`${label.padEnd(40)} (no data)`);
  const ours = await measure(engineFor(type), type, list);
  let line = `${label.padEnd(40)} ${String(list.length).padStart(4)} | ${rate(ours).padEnd(16)} ${times(ours)}`;
  const theirs = tess ? await measure(tess, type, list) : undefined;
  if (theirs) line += ` | ${rate(theirs).padEnd(16)} ${times(theirs)}`;
  console.log(line);
  if (ours.ious.length) console.log(`    code boxes: median IoU with the labeled box ${median(ours.ious).toFixed(2)}, ${ours.ious.filter((v) => v >= 0.5).length}/${ours.ious.length} at 0.5 or more`);
  if (ours.sizeTypes.expected) console.log(`    size and type codes: ${ours.sizeTypes.hits}/${ours.sizeTypes.expected}`);
  if (list.some((c) => c.tenths)) console.log(`    without the tenths wheel (either side may leave it out): ${ours.tenthsFreeHits}/${ours.expected}`);
  for (const [half, h] of Object.entries(ours.halves).sort()) console.log(`    ${half} half: ${h.hits}/${h.expected} exact, ${h.tenthsFree}/${h.expected} without the tenths wheel`);
  if (showMisses) {
    for (const m of ours.misses) console.log(`    miss ${m}`);
    for (const m of theirs?.misses ?? []) console.log(`    tesseract miss ${m}`);
  }
}

function manifest(name: string): { items: Array<Record<string, unknown>> } | undefined {
  const f = path.join(data, name, 'manifest.json');
  return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : undefined;
}
const file = (set: string, it: Record<string, unknown>) => fs.readFileSync(path.join(data, set, String(it.file)));

let synthetic: Awaited<ReturnType<typeof syntheticSets>> | undefined;
const synth = async () => (synthetic ??= await syntheticSets({ vins: vinCount, isoVins: 20, trailers: trailerCount, boats: 16 }));

console.log(`\nOCR accuracy and speed (${fs.existsSync(data) ? data : 'datasets not found: synthetic only'}); ms measured under whatever else runs on the machine`);
console.log(tessVersion ? `Tesseract: ${tessVersion} (psm 11 on pictures, psm 7 on crops; Vigil's readers on its words)` : 'tesseract command not installed (or --no-tesseract): no comparison');
const head = `${'set'.padEnd(40)} ${'imgs'.padStart(4)} | ${'Vigil exact'.padEnd(16)} ${'median'.padStart(5)} ${'p95 ms'.padStart(6)} ${'cpu ms'.padStart(6)} ${'wrong'.padStart(5)}`;
const column = (name: string) => ` | ${name.padEnd(16)} ${'median'.padStart(5)} ${'p95 ms'.padStart(6)} ${'cpu ms'.padStart(6)} ${'wrong'.padStart(5)}`;
console.log(head + (tess ? column('Tesseract exact') : ''));

await run('containers-gate', 'containers-gate (11-char code)', 'shipping_container', () => manifest('containers-gate')?.items.slice(0, limit).map((it) => ({ name: String(it.file), bytes: file('containers-gate', it), expect: [String(it.code)], box: it.box_xyxy as number[] | undefined, sizeType: it.size_type as string | undefined })) ?? []);
await run('containers-yard', 'containers-yard (every code)', 'shipping_container', () => manifest('containers-yard')?.items.map((it) => ({ name: String(it.file), bytes: file('containers-yard', it), expect: it.codes as string[] })) ?? []);
// Split by content hash like the plate sets: every reliable photo was looked at while the reader
// was tuned (before 2026-11-28), so neither half is untouched yet; from now on tune on `fit`.
await run('odometers', 'odometers (reliable labels)', 'odometer', async () => Promise.all((manifest('odometers')?.items ?? []).filter((it) => it.reliable === true).slice(0, limit).map(async (it) => ({
  name: String(it.file), bytes: file('odometers', it), expect: [String(it.reading)], tenths: true, half: await splitOf(path.join(data, 'odometers', String(it.file))),
}))));
// The unlabelled odometers list the digit rows on the photo: reading one of them (not a clock,
// not nothing) is a regression check, not an accuracy figure; run only when named in --only.
if (only?.includes('odometers-rows')) await run('odometers-rows', 'odometers (unreliable: one of its rows)', 'odometer', () => manifest('odometers')?.items.filter((it) => it.reliable !== true && Array.isArray(it.digit_rows) && it.digit_rows.length > 0).slice(0, limit).map((it) => ({ name: String(it.file), bytes: file('odometers', it), expect: it.digit_rows as string[], anyOf: true })) ?? []);
await run('vins-na', 'synthetic VINs, North American', 'vin', async () => (await synth()).vinsNa);
await run('vins-iso', 'synthetic VINs, ISO 3779 (no check digit)', 'vin', async () => (await synth()).vinsIso);
await run('trailers-h', 'synthetic trailer IDs, horizontal', 'trailer_id', async () => (await synth()).trailersH);
await run('trailers-v', 'synthetic trailer IDs, stacked vertical', 'trailer_id', async () => (await synth()).trailersV);
await run('boats', 'synthetic boat numbers (US, CA)', 'boat_reg_number', async () => (await synth()).boats);
// The second generator (bench/lib/ocr-synthetic-second.ts): renderings the readers were never
// tuned on. --second-out DIR writes its images there to look at, with SECOND_CASES listing each
// one's set and expected values; --second-from DIR reads a draw written so instead of drawing it
// again (rendering every set is most of a draw's time: several draws are read again in seconds).
// --second-draws A-B reads the draws A to B as one set each, a draw's images under DIR/draw-N
// where --second-out or --second-from names DIR: the figures a group of fresh draws is quoted by.
const SECOND_CASES = 'cases.json';
let second: SecondSyntheticSets | undefined;
const synth2 = async () => {
  if (second) return second;
  const draws = secondDraws(flag('second-draws'), Number(flag('second-draw', '0')));
  const [from, out] = [flag('second-from'), flag('second-out')];
  const dirOf = (dir: string, n: number) => (draws.length > 1 ? path.join(dir, `draw-${n}`) : dir);
  const each: SecondSyntheticSets[] = [];
  for (const n of draws) {
    const sets = from ? readSecondDraw(dirOf(from, n)) : await secondSyntheticSets({ vins: 40, trailers: 40, boats: 20, draw: n });
    if (out) writeSecondDraw(dirOf(out, n), sets);
    each.push(draws.length > 1 ? withDrawNamed(sets, n) : sets);
  }
  second = { vins: each.flatMap((s) => s.vins), trailersH: each.flatMap((s) => s.trailersH), trailersV: each.flatMap((s) => s.trailersV), boats: each.flatMap((s) => s.boats) };
  return second;
};
/** The draws `range` (A-B) names, else the one draw `single`. */
function secondDraws(range: string | undefined, single: number): number[] {
  if (range === undefined) return [single];
  const m = /^(\d+)-(\d+)$/.exec(range);
  if (!m || Number(m[2]) < Number(m[1])) throw new Error(`--second-draws wants a range of draws such as 108-119, not ${range}`);
  return Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, i) => Number(m[1]) + i);
}
function withDrawNamed(sets: SecondSyntheticSets, n: number): SecondSyntheticSets {
  const named = (cases: SyntheticCase[]) => cases.map((c) => ({ ...c, name: `draw ${n} ${c.name}` }));
  return { vins: named(sets.vins), trailersH: named(sets.trailersH), trailersV: named(sets.trailersV), boats: named(sets.boats) };
}
const caseFile = (c: SyntheticCase) => `${c.name.replace(/[^\w.-]+/g, '_')}.jpg`;
function writeSecondDraw(dir: string, sets: SecondSyntheticSets): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const c of Object.values(sets).flat()) fs.writeFileSync(path.join(dir, caseFile(c)), c.bytes);
  const listed = Object.fromEntries(Object.entries(sets).map(([set, cases]) => [set, (cases as SyntheticCase[]).map((c) => ({ name: c.name, file: caseFile(c), expect: c.expect }))]));
  fs.writeFileSync(path.join(dir, SECOND_CASES), JSON.stringify(listed, null, 1));
}
function readSecondDraw(dir: string): SecondSyntheticSets {
  const listed = JSON.parse(fs.readFileSync(path.join(dir, SECOND_CASES), 'utf8')) as Record<keyof SecondSyntheticSets, Array<{ name: string; file: string; expect: string[] }>>;
  const read = (set: keyof SecondSyntheticSets): SyntheticCase[] => listed[set].map((c) => ({ name: c.name, bytes: fs.readFileSync(path.join(dir, c.file)), expect: c.expect }));
  return { vins: read('vins'), trailersH: read('trailersH'), trailersV: read('trailersV'), boats: read('boats') };
}
await run('vins-second', 'second generator: VINs on metal plates', 'vin', async () => (await synth2()).vins);
await run('trailers-h-second', 'second generator: trailer IDs, horizontal', 'trailer_id', async () => (await synth2()).trailersH);
await run('trailers-v-second', 'second generator: trailer IDs, stacked', 'trailer_id', async () => (await synth2()).trailersV);
await run('boats-second', 'second generator: boat numbers', 'boat_reg_number', async () => (await synth2()).boats);
