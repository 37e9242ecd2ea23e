/**
 * npm run bench:plate-reader [-- --data DIR] [--split held|fit|all] [--model FILE] [--limit N]
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
 */
import os from 'node:os';
import { readFile } from 'node:fs/promises';
import { decodeImage, type RawImage } from '../src/vision/image/decode.js';
import { cropRect } from '../src/vision/image/warp.js';
import { createOcrEngine, type LineRecognizer } from '../src/vision/ocr/ocr-engine.js';
import { createPlateTextModel } from '../src/vision/plates/plate-text-model.js';
import { PLATE_CHARSET } from '../src/vision/plates/plate-reread.js';
import { DEFAULT_DATA_DIR, DEV_SPLITS, type DevSplit, loadPlateSets } from './lib/plates-dataset.js';
import { exactKey, looseKey } from './lib/plates-bench-metrics.js';
import { fileFlag, flag, median, timed } from './lib/stats.js';

const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const split = flag('split', 'held') as DevSplit;
if (!DEV_SPLITS.includes(split)) throw new Error(`--split must be one of ${DEV_SPLITS.join(', ')}`);
const limit = Number(flag('limit', '0'));

const model = fileFlag('model');
const trained = model
  ? { trained: await createPlateTextModel({ file: model, intraOpNumThreads: 1 }) }
  : { trained: await createPlateTextModel({ intraOpNumThreads: 1 }), 'trained-fp32': await createPlateTextModel({ precision: 'fp32', intraOpNumThreads: 1 }) };
const ocr = await createOcrEngine({ intraOpNumThreads: 1, recognizerThreads: 0 });
const readers: Record<string, (crop: RawImage) => ReturnType<LineRecognizer['recognizeCrops']>> = {
  ...Object.fromEntries(Object.entries(trained).map(([name, reader]) => [name, (crop: RawImage) => reader.recognizeCrops([crop], { charset: PLATE_CHARSET })])),
  ppocr: (crop: RawImage) => ocr.recognizeCrops([crop], { charset: PLATE_CHARSET }),
};

console.log(`plate reader bench: ${split} split, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const sets = await loadPlateSets(dataDir, split);
for (const [name, all] of Object.entries(sets)) {
  const samples = limit > 0 ? all.slice(0, limit) : all;
  const crops = await Promise.all(samples.map(async (s) => {
    const image = await decodeImage(await readFile(s.file));
    if (!s.box) return image;
    const { xmin, ymin, xmax, ymax } = s.box;
    return cropRect(image, Math.round(xmin), Math.round(ymin), Math.round(xmax - xmin), Math.round(ymax - ymin));
  }));
  for (const [reader, read] of Object.entries(readers)) {
    await read(crops[0]!); // warm-up
    let exact = 0;
    let loose = 0;
    const ms: number[] = [];
    const misses: string[] = [];
    for (let i = 0; i < crops.length; i++) {
      const { value: [decoded], ms: took } = await timed(() => read(crops[i]!));
      ms.push(took);
      const text = decoded?.text ?? '';
      const label = samples[i]!.plate;
      if (exactKey(text) === exactKey(label)) exact++;
      if (looseKey(text) === looseKey(label)) loose++;
      else misses.push(`${label}:${text || '-'}`);
    }
    const pct = (k: number) => `${((k / crops.length) * 100).toFixed(1).padStart(5)}%`;
    console.log(`${`${name} ${reader}`.padEnd(24)} n=${String(crops.length).padStart(3)}  exact ${pct(exact)}  O0/I1 ${pct(loose)}  median ${median(ms).toFixed(2)} ms/crop`);
    if (process.argv.includes('--misses')) console.log(`  misses: ${misses.join(' ')}`);
  }
}
