/**
 * npm run bench:recognizer-threads [-- --sets scenes-us,containers-gate] [--limit N] [--modes normal,fast] [--threads 1] [--data DIR]
 *
 * Paired A/B of the recogniser layout (src/vision/runtime/session-pool.ts) in one process: A
 * reads on the calling thread alone (OCR_RECOGNIZER_THREADS=0), B with `--threads` worker
 * threads beside it (default 1). Every photo is read by both, in alternating order, so a machine
 * whose load drifts weighs on both alike. Per set and mode: median ms and process CPU ms per
 * photo of A and B, the median of B/A per photo, and the photos whose readings differ (none
 * expected: the batches are the same). Plate sets from plates-scenes / plates-crops-us, and
 * containers-gate (shipping container codes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeForRecognition, decodeImage } from '../src/vision/image/decode.js';
import { createOcrEngine, type OcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { readText } from '../src/vision/ocr/readers/text-reader.js';
import { createPlatePipeline } from '../src/vision/plates/plate-pipeline.js';
import type { PlateReadOptions } from '../src/vision/plates/plate.types.js';
import { DEFAULT_DATA_DIR, loadPlateSets } from './lib/plates-dataset.js';
import { pairedRuns, timingColumns } from './lib/ab.js';
import { flag } from './lib/stats.js';

const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const wanted = flag('sets', 'scenes-us,containers-gate')!.split(',');
const limit = Number(flag('limit', '0'));
const modes = flag('modes', 'normal,fast')!.split(',') as Array<PlateReadOptions['mode']>;
const threads = Number(flag('threads', '1'));

const [a, b] = await Promise.all([createOcrEngine({ recognizerThreads: 0 }), createOcrEngine({ recognizerThreads: threads })]);

type Reader = (engine: OcrEngine, bytes: Buffer) => Promise<string>;

async function compare(name: string, photos: Buffer[], read: Reader): Promise<void> {
  await read(a, photos[0]!);
  await read(b, photos[0]!);
  const runs = await pairedRuns(photos.length, { a: (i) => read(a, photos[i]!), b: (i) => read(b, photos[i]!) }, (out) => out);
  console.log(`${name.padEnd(24)} n=${String(photos.length).padStart(3)}  ${timingColumns(runs)}${runs.differ.length ? ` (photos ${runs.differ.join(',')})` : ''}`);
}

console.log(`recogniser threads A/B: ${os.cpus().length} cores, A calling thread only, B calling thread + ${threads} worker thread(s), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const plateSets = await loadPlateSets(dataDir).catch(() => ({} as Awaited<ReturnType<typeof loadPlateSets>>));
for (const set of wanted) {
  if (set.startsWith('containers')) {
    const dir = path.join(dataDir, set);
    if (!fs.existsSync(dir)) continue;
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jpg')).sort();
    const photos = (limit > 0 ? files.slice(0, limit) : files).map((f) => fs.readFileSync(path.join(dir, f)));
    await compare(set, photos, async (engine, bytes) =>
      (await readText(engine, 'shipping_container', await decodeForRecognition(bytes, { maxSide: 2048 }))).map((r) => r.value).join(','));
    continue;
  }
  const samples = plateSets[set];
  if (!samples) continue;
  const photos = (limit > 0 ? samples.slice(0, limit) : samples).map((s) => fs.readFileSync(s.file));
  const pipelines = new Map([[a, createPlatePipeline(a)], [b, createPlatePipeline(b)]]);
  for (const mode of modes) {
    const options: PlateReadOptions = { regions: [], strictRegion: false, textFormats: [], mode, thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: false };
    await compare(`${set} ${mode}`, photos, async (engine, bytes) =>
      (await pipelines.get(engine)!.read(await decodeImage(bytes), options)).plates.map((p) => p.plate).join(','));
  }
}
