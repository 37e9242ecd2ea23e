/**
 * npm run bench:plate-reader [-- --data DIR] [--split held|fit|all] [--model FILE] [--limit N] [--misses] [--jitter] [--shifts]
 *
 * The plate reader alone, on crops: each labeled plate of the dev sets cut out (plates-crops-us
 * as it is, plates-scenes by its labeled box) and read by Vigil's trained reader in 8 bits
 * (`trained`, models/plate-reader.int8.onnx, what the server runs) and in float
 * (`trained-fp32`, models/plate-reader.onnx), or by the one --model names instead of both, and
 * by the general PP-OCR recogniser the plate pipeline used before, restricted to plate
 * characters, in the same run. Per set: the share
 * read whole (exact and O/0-I/1 equal), and the median milliseconds per crop, each read alone
 * (batch 1) on one intra-op thread. Only the `held` half by default: the half the models never
 * trained on (see bench/lib/plates-dataset.ts).
 *
 * --jitter: each scene plate is also read from seven boxes around its labeled one (the box,
 * grown, shrunk, shifted left, right, up and down by a few percent), the text the boxes' summed
 * confidences favour winning: `<reader> vote`. A test of whether reading a crop several ways
 * beats reading it once; plates-crops-us has no box around its crops and is read once.
 *
 * --shifts: each scene plate is also read from 25 boxes, its left and its right edge each moved
 * by -4, -2, 0, 2 and 4% of its width: `<reader> shifted` gives the share of those crops read
 * right (a read rate over the few pixels by which any two detectors' or cuts' boxes differ, so
 * less moved by one box's luck than a single reading) and how many plates read right in some
 * crops but not in all, naming them.
 */
import os from 'node:os';
import { readFile } from 'node:fs/promises';
import { decodeImage, type RawImage } from '../src/vision/image/decode.js';
import { cropRect } from '../src/vision/image/warp.js';
import type { DecodedText } from '../src/vision/ocr/ctc-decode.js';
import { createOcrEngine, type LineRecognizer } from '../src/vision/ocr/ocr-engine.js';
import { createPlateTextModel } from '../src/vision/plates/plate-text-model.js';
import { PLATE_CHARSET } from '../src/vision/plates/plate-reread.js';
import { DEFAULT_DATA_DIR, DEV_SPLITS, type DevSplit, loadPlateSets, type PlateBox, type PlateSample } from './lib/plates-dataset.js';
import { exactKey, looseKey } from './lib/plates-bench-metrics.js';
import { fileFlag, flag, median, timed } from './lib/stats.js';

const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const split = flag('split', 'held') as DevSplit;
if (!DEV_SPLITS.includes(split)) throw new Error(`--split must be one of ${DEV_SPLITS.join(', ')}`);
const limit = Number(flag('limit', '0'));
const jitter = process.argv.includes('--jitter');
const shifts = process.argv.includes('--shifts');

const model = fileFlag('model');
const trained = model
  ? { trained: await createPlateTextModel({ file: model, intraOpNumThreads: 1 }) }
  : { trained: await createPlateTextModel({ intraOpNumThreads: 1 }), 'trained-fp32': await createPlateTextModel({ precision: 'fp32', intraOpNumThreads: 1 }) };
const ocr = await createOcrEngine({ intraOpNumThreads: 1, recognizerThreads: 0 });
const readers: Record<string, (crop: RawImage) => ReturnType<LineRecognizer['recognizeCrops']>> = {
  ...Object.fromEntries(Object.entries(trained).map(([name, reader]) => [name, (crop: RawImage) => reader.recognizeCrops([crop], { charset: PLATE_CHARSET })])),
  ppocr: (crop: RawImage) => ocr.recognizeCrops([crop], { charset: PLATE_CHARSET }),
};

/** Box changes as shares of the box's width and height: left, top, right and bottom edges moved
 * inwards (negative: outwards). */
type Jitter = readonly [number, number, number, number];
const NO_JITTER: Jitter = [0, 0, 0, 0];
const JITTERS: readonly Jitter[] = [NO_JITTER, [-0.04, -0.08, -0.04, -0.08], [0.03, 0.05, 0.03, 0.05],
  [-0.05, 0, 0.03, 0], [0.03, 0, -0.05, 0], [0, -0.1, 0, 0.05], [0, 0.05, 0, -0.1]];
/** Edge moves of --shifts, as shares of the box's width (positive: inwards). */
const EDGE_SHIFTS = [-0.04, -0.02, 0, 0.02, 0.04];

/** The labeled box moved by `jitter`, cut out (NO_JITTER: the box itself, as the bench always cut
 * it); a box grown past the photo's edge loses what lies beyond it (cropRect clamps the rest). */
function jitteredCrop(image: RawImage, box: PlateBox, [l, t, r, b]: Jitter): RawImage {
  const w = box.xmax - box.xmin, h = box.ymax - box.ymin;
  const x = Math.round(box.xmin + l * w), y = Math.round(box.ymin + t * h);
  const width = Math.round(w * (1 - l - r)) + Math.min(0, x), height = Math.round(h * (1 - t - b)) + Math.min(0, y);
  return cropRect(image, Math.max(0, x), Math.max(0, y), width, height);
}

console.log(`plate reader bench: ${split} split, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const sets = await loadPlateSets(dataDir, split);
for (const [name, all] of Object.entries(sets)) {
  const samples = limit > 0 ? all.slice(0, limit) : all;
  const images = await Promise.all(samples.map(async (s) => decodeImage(await readFile(s.file))));
  const crops = samples.map((s, i) => (s.box ? jitteredCrop(images[i]!, s.box, NO_JITTER) : images[i]!));
  for (const [reader, read] of Object.entries(readers)) {
    await read(crops[0]!); // warm-up
    let exact = 0;
    let loose = 0;
    const ms: number[] = [];
    const misses: string[] = [];
    const firstReads: Array<DecodedText | undefined> = [];
    for (let i = 0; i < crops.length; i++) {
      const { value: [decoded], ms: took } = await timed(() => read(crops[i]!));
      ms.push(took);
      firstReads.push(decoded);
      const text = decoded?.text ?? '';
      const label = samples[i]!.plate;
      if (exactKey(text) === exactKey(label)) exact++;
      if (looseKey(text) === looseKey(label)) loose++;
      else misses.push(`${label}:${text || '-'}`);
    }
    const pct = (k: number) => `${((k / crops.length) * 100).toFixed(1).padStart(5)}%`;
    console.log(`${`${name} ${reader}`.padEnd(24)} n=${String(crops.length).padStart(3)}  exact ${pct(exact)}  O0/I1 ${pct(loose)}  median ${median(ms).toFixed(2)} ms/crop`);
    if (process.argv.includes('--misses')) console.log(`  misses: ${misses.join(' ')}`);
    if (jitter && samples[0]?.box) await readJittered(name, reader, read, samples, images, firstReads);
    if (shifts && samples[0]?.box) await readShifted(name, reader, read, samples, images);
  }
}

/** --jitter: every scene plate read from JITTERS' boxes (the labeled box's reading, `firstReads`,
 * already made), the likeliest text by summed confidence. */
async function readJittered(set: string, reader: string, read: (crop: RawImage) => ReturnType<LineRecognizer['recognizeCrops']>, samples: readonly PlateSample[], images: readonly RawImage[], firstReads: ReadonlyArray<DecodedText | undefined>) {
  let loose = 0;
  const changed: string[] = [];
  for (let i = 0; i < samples.length; i++) {
    const readings = [firstReads[i]];
    for (const j of JITTERS.slice(1)) readings.push((await read(jitteredCrop(images[i]!, samples[i]!.box!, j)))[0]);
    const votes = new Map<string, number>();
    for (const d of readings) if (d) votes.set(looseKey(d.text), (votes.get(looseKey(d.text)) ?? 0) + d.confidence);
    const winner = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    if (winner === looseKey(samples[i]!.plate)) loose++;
    if (winner !== looseKey(readings[0]?.text ?? '')) changed.push(`${samples[i]!.plate}:${readings[0]?.text || '-'}->${winner}`);
  }
  console.log(`${`${set} ${reader} vote`.padEnd(24)} n=${String(samples.length).padStart(3)}  O0/I1 ${((loose / samples.length) * 100).toFixed(1).padStart(5)}%  changed: ${changed.join(' ') || 'none'}`);
}

/** --shifts: every scene plate read from boxes whose left and right edges move by EDGE_SHIFTS. */
async function readShifted(set: string, reader: string, read: (crop: RawImage) => ReturnType<LineRecognizer['recognizeCrops']>, samples: readonly PlateSample[], images: readonly RawImage[]) {
  const perPlate = EDGE_SHIFTS.length ** 2;
  const total = perPlate * samples.length;
  let right = 0;
  const unsteady: string[] = [];
  for (let i = 0; i < samples.length; i++) {
    const label = looseKey(samples[i]!.plate);
    let hits = 0;
    for (const l of EDGE_SHIFTS) for (const r of EDGE_SHIFTS) {
      const [decoded] = await read(jitteredCrop(images[i]!, samples[i]!.box!, [l, 0, r, 0]));
      if (looseKey(decoded?.text ?? '') === label) hits++;
    }
    right += hits;
    if (hits > 0 && hits < perPlate) unsteady.push(`${samples[i]!.plate}:${hits}/${perPlate}`);
  }
  console.log(`${`${set} ${reader} shifted`.padEnd(24)} n=${String(samples.length).padStart(3)}  O0/I1 ${((right / total) * 100).toFixed(1).padStart(5)}% (${right} of ${total} crops)  read in some crops only: ${unsteady.length} (${unsteady.join(' ') || 'none'})`);
}
