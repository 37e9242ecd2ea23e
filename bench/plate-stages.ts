/**
 * npm run bench:plate-stages [-- --data DIR] [--split held|fit|all] [--sets scenes-us,...] [--modes fast,normal]
 *   [--frame 1920x1080] [--tilt DEG] [--limit N]
 *
 * Where a photo's time goes in the plate pipeline `vigil serve` builds (configured-pipeline.ts),
 * per set and mode: the median and mean milliseconds per photo, decoding, each model's
 * onnxruntime calls (milliseconds per photo, calls per photo and milliseconds per call), and what
 * is left: JavaScript (warps, ink masks, inputs, garbage collection) and waits. onnxruntime-node
 * runs a session on the calling thread, so the models' and JavaScript's shares add up to the
 * photo's time. The photos as bench:plates reads them (default: resampled to fit a 1080p frame
 * and stored again as JPEG q92; the `held` half). For a machine's own figures, next to
 * bench:plates, not for A/B comparisons (bench:plates-ab).
 */
import os from 'node:os';
import ort from 'onnxruntime-node';
import { decodeImage } from '../src/vision/image/decode.js';
import { createOcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { configuredPlatePipeline } from '../src/vision/plates/configured-pipeline.js';
import type { PlateReadOptions } from '../src/vision/plates/plate.types.js';
import { defaultVisionSettings } from '../src/vision/settings.js';
import { copyOptionsFromArgs, parseFrame, photoCopy } from './lib/plate-copies.js';
import { DEFAULT_DATA_DIR, DEV_SPLITS, type DevSplit, loadPlateSets } from './lib/plates-dataset.js';
import { flag, median } from './lib/stats.js';

/** The models by their output names (each graph's own). */
const MODEL_NAMES: Record<string, string> = {
  probs: 'plate reader',
  'maps,vehicles': 'plate detector',
  maps: 'plate detector',
  'sigmoid_0.tmp_0': 'PP-OCR text detector',
  'softmax_11.tmp_0': 'PP-OCR recogniser',
};

/** Milliseconds and calls per model since the last reset: every session's run, timed. */
const spent = new Map<string, { ms: number; calls: number }>();
// The typings name InferenceSession a factory; the class behind it holds `run`.
const sessions = (ort.InferenceSession as unknown as { prototype: ort.InferenceSession }).prototype;
const run = sessions.run;
sessions.run = async function timedRun(this: ort.InferenceSession, ...args: Parameters<typeof run>) {
  const started = performance.now();
  try {
    return await run.apply(this, args);
  } finally {
    const key = this.outputNames.join(',');
    const name = MODEL_NAMES[key] ?? key;
    const s = spent.get(name) ?? { ms: 0, calls: 0 };
    s.ms += performance.now() - started;
    s.calls++;
    spent.set(name, s);
  }
} as typeof run;

const split = flag('split', 'held') as DevSplit;
if (!DEV_SPLITS.includes(split)) throw new Error(`--split must be one of ${DEV_SPLITS.join(', ')}`);
const wanted = flag('sets', 'scenes-us,scenes-eu,scenes-br')!.split(',');
const modes = flag('modes', 'fast,normal')!.split(',') as Array<PlateReadOptions['mode']>;
const frame = parseFrame(flag('frame', '1920x1080'));
const tilt = copyOptionsFromArgs(flag).tilt ?? 0;
const limit = Number(flag('limit', '0'));
const sets = await loadPlateSets(flag('data', DEFAULT_DATA_DIR)!, split);
const pipeline = await configuredPlatePipeline(await createOcrEngine(), defaultVisionSettings());
const options = (mode: PlateReadOptions['mode']): PlateReadOptions => ({
  regions: [], strictRegion: false, textFormats: [], mode, thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: false,
});

console.log(`plate stages: ${split} split, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${tilt ? `photos turned ${tilt} degrees, ` : ''}photos to fit ${frame ? `${frame.width} x ${frame.height}` : 'their own size'}, JPEG q92`);
for (const name of wanted) {
  const samples = sets[name];
  if (!samples) throw new Error(`--sets: no set ${name} (${Object.keys(sets).join(', ')})`);
  const photos = await Promise.all((limit > 0 ? samples.slice(0, limit) : samples).map((s) => photoCopy(s.file, { frame, jpegQuality: 92, tilt })));
  // Warm-up: first runs allocate the sessions' buffers.
  await pipeline.read(await decodeImage(photos[0]!.bytes), options('normal'));
  for (const mode of modes) {
    spent.clear();
    const totals: number[] = [];
    let decoding = 0;
    for (const { bytes } of photos) {
      const started = performance.now();
      const image = await decodeImage(bytes);
      decoding += performance.now() - started;
      await pipeline.read(image, options(mode));
      totals.push(performance.now() - started);
    }
    const n = photos.length;
    const total = totals.reduce((a, b) => a + b, 0);
    const models = [...spent].sort((a, b) => b[1].ms - a[1].ms);
    const inModels = models.reduce((sum, [, s]) => sum + s.ms, 0);
    console.log(`${name} ${mode}: n=${n}  median ${median(totals).toFixed(1)} ms  mean ${(total / n).toFixed(1)} ms`);
    console.log(`  ${(decoding / n).toFixed(1).padStart(6)} ms  decoding`);
    for (const [model, s] of models) console.log(`  ${(s.ms / n).toFixed(1).padStart(6)} ms  ${model}: ${(s.calls / n).toFixed(2)} calls a photo, ${(s.ms / s.calls).toFixed(2)} ms a call`);
    console.log(`  ${((total - decoding - inModels) / n).toFixed(1).padStart(6)} ms  JavaScript and waits`);
  }
}
