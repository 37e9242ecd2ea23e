/**
 * npm run bench:plate-detector [-- --data DIR] [--split held|fit|all] [--model FILE] [--min-score S] [--threads N]
 *
 * Vigil's plate detector alone, on the dev scene sets: the share of labeled plates it boxes (IoU
 * at least 0.5, and 0.3), boxes per photo, and the median milliseconds per photo (input
 * preparation and model, decode of the JPEG excluded), with the PP-OCR text detector's 640 px
 * pass timed on the same photos as the baseline. Only the `held` half by default.
 */
import os from 'node:os';
import { readFile } from 'node:fs/promises';
import { decodeImage } from '../src/vision/image/decode.js';
import { createOcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { createPlateDetector } from '../src/vision/plates/plate-detector-model.js';
import { iou } from './lib/boxes.js';
import { DEFAULT_DATA_DIR, DEV_SPLITS, type DevSplit, loadPlateSets } from './lib/plates-dataset.js';
import { fileFlag, flag, median, timed } from './lib/stats.js';

const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const split = flag('split', 'held') as DevSplit;
if (!DEV_SPLITS.includes(split)) throw new Error(`--split must be one of ${DEV_SPLITS.join(', ')}`);
const minScore = Number(flag('min-score', '0.3'));
const threads = Number(flag('threads', '2'));

const detector = await createPlateDetector({ file: fileFlag('model'), intraOpNumThreads: threads });
const ocr = await createOcrEngine({ intraOpNumThreads: threads, recognizerThreads: 0 });

console.log(`plate detector bench: ${split} split, min score ${minScore}, ${threads} intra-op threads, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const sets = await loadPlateSets(dataDir, split);
for (const [name, samples] of Object.entries(sets)) {
  if (!name.startsWith('scenes-')) continue;
  const photos = await Promise.all(samples.map(async (s) => decodeImage(await readFile(s.file))));
  await detector.detect(photos[0]!);
  await ocr.detect(photos[0]!, { detLimitSide: 640 });
  let at5 = 0;
  let at3 = 0;
  let boxes = 0;
  const ms: number[] = [];
  const baseMs: number[] = [];
  for (const [i, photo] of photos.entries()) {
    const { value: detection, ms: took } = await timed(() => detector.detect(photo, { minScore }));
    const found = detection.plates;
    ms.push(took);
    baseMs.push((await timed(() => ocr.detect(photo, { detLimitSide: 640 }))).ms);
    boxes += found.length;
    const label = samples[i]!.box!;
    const best = Math.max(0, ...found.map((f) => iou(f.box, label)));
    if (best >= 0.5) at5++;
    if (best >= 0.3) at3++;
  }
  const pct = (k: number) => `${((k / photos.length) * 100).toFixed(1)}%`;
  console.log(`${name.padEnd(10)} n=${String(photos.length).padStart(3)}  found IoU>=0.5 ${pct(at5)}  >=0.3 ${pct(at3)}  boxes/photo ${(boxes / photos.length).toFixed(2)}  median ${median(ms).toFixed(1)} ms  (PP-OCR text detector 640 px: ${median(baseMs).toFixed(1)} ms)`);
}
