/**
 * npm run bench:plates-ab -- --base REV [--split held|fit|all] [--reader trained|ppocr] [--detector trained|text] [--search every-plate|first-sure|small-plates] [--vehicles asked|head|always] [--sets scenes-us,scenes-br,pasted-us [--paste-scale S]] [--modes normal,fast] [--limit N] [--data DIR] [--long-side N] [--frame WxH] [--jpeg-quality Q] [--grey] [--tilt DEG] [--diffs]
 *
 * Paired A/B of the plate pipeline: A is git revision REV (checked out in a temporary worktree),
 * B this checkout's working tree, each with its own OCR engine, in one process; B is built as the
 * server builds it (configured-pipeline.ts) with PLATE_READER=--reader, PLATE_DETECTOR=--detector and
 * PLATE_SEARCH=--search
 * (default: the server's defaults) and, with --vehicles, PLATE_VEHICLES and the vehicle
 * detector the server gives both sides (without it neither looks for vehicles), on the --split
 * half of each set (default `held`, see
 * bench:plates). A is built as its revision's server builds it. Every photo is
 * read by both, in alternating order, so a machine whose load drifts weighs on both alike (ms on
 * this machine drift by up to 2x between days: a figure is only worth its baseline of the same
 * run). Per set and mode: the O/0-I/1 rate of A and B, median ms and CPU ms per photo, B/A of
 * the medians and the median of B/A per photo, how many photos read differently (a plate, a
 * score or a candidate; `--diffs` lists them) and, with --vehicles, the share of the labeled
 * plates read that came back on a vehicle. Copies as in bench:plates (`--long-side`, `--frame`,
 * `--jpeg-quality`, `--grey`, `--tilt`).
 */
import os from 'node:os';
import type { RawImage } from '../src/vision/image/decode.js';
import { decodeImage } from '../src/vision/image/decode.js';
import type { PlateReadOptions, PlateReadResult } from '../src/vision/plates/plate.types.js';
import { createOcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { configuredPlatePipeline } from '../src/vision/plates/configured-pipeline.js';
import { parsePlateFinder } from '../src/vision/plates/plate-finder.js';
import { parsePlateLineReader } from '../src/vision/plates/plate-line-reader.js';
import { parsePlateVehicles } from '../src/vision/plates/plate-vehicles.js';
import { parsePlateSearch } from '../src/vision/plates/plate-search.js';
import type { VehicleFinder } from '../src/vision/plates/vehicle-assignment.js';
import { dominantColour } from '../src/vision/vehicles/vehicle-colour.js';
import { createVehicleDetector } from '../src/vision/vehicles/vehicle-detector.js';
import { defaultVisionSettings } from '../src/vision/settings.js';
import { baseRevision, checkoutAt, pairedRuns, timingColumns } from './lib/ab.js';
import { copyOptionsFromArgs, describeCopies, photoCopy } from './lib/plate-copies.js';
import { PASTED_SET, pastedSet, pasteScaleOption } from './lib/plate-paste.js';
import { looseKey } from './lib/plates-bench-metrics.js';
import { DEFAULT_DATA_DIR, DEV_SPLITS, type DevSplit, loadPlateSets } from './lib/plates-dataset.js';
import { flag } from './lib/stats.js';

const base = baseRevision(flag, 'bench:plates-ab');
const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const wanted = flag('sets', 'scenes-us,scenes-br')!.split(',');
const modes = flag('modes', 'normal,fast')!.split(',') as Array<PlateReadOptions['mode']>;
const limit = Number(flag('limit', '0'));
const listDiffs = process.argv.includes('--diffs');
const copies = copyOptionsFromArgs(flag);
const split = flag('split', 'held') as DevSplit;
if (!DEV_SPLITS.includes(split)) throw new Error(`--split must be one of ${DEV_SPLITS.join(', ')}`);
const vehiclesFlag = flag('vehicles');
const settingsB = {
  ...defaultVisionSettings(), plateSearch: parsePlateSearch(flag('search')), plateReader: parsePlateLineReader(flag('reader')), plateDetector: parsePlateFinder(flag('detector')), plateVehicles: parsePlateVehicles(vehiclesFlag),
};
/** The vehicle finder the server's recognition workers give the pipeline (recognition.worker.ts). */
async function serverVehicles(): Promise<VehicleFinder | undefined> {
  if (vehiclesFlag === undefined) return undefined;
  const detector = await createVehicleDetector();
  return { detect: (img) => detector.detect(img, { minScore: 0.2 }), dominantColour };
}
const vehicles = await serverVehicles();

interface Reader { read(image: RawImage, options: PlateReadOptions): Promise<PlateReadResult> }

const checkout = checkoutAt(base);
const baseEngine = await checkout.load<typeof import('../src/vision/ocr/ocr-engine.js')>('src/vision/ocr/ocr-engine.js');
const basePlates = await checkout.load<typeof import('../src/vision/plates/plate-pipeline.js')>('src/vision/plates/plate-pipeline.js');
/** A as its revision's server builds it: through its configured-pipeline.ts where it has one
 * (its defaults, its models), else the pipeline's own defaults (before 2026-11-27). */
async function baseReader(): Promise<Reader> {
  const engine = await baseEngine.createOcrEngine();
  const configured = await checkout.load<typeof import('../src/vision/plates/configured-pipeline.js')>('src/vision/plates/configured-pipeline.js').catch(() => undefined);
  if (!configured) return basePlates.createPlatePipeline(engine);
  const settings = await checkout.load<typeof import('../src/vision/settings.js')>('src/vision/settings.js');
  return configured.configuredPlatePipeline(engine, settings.defaultVisionSettings(), vehicles);
}
const readers: Record<'a' | 'b', Reader> = {
  a: await baseReader(),
  b: await configuredPlatePipeline(await createOcrEngine(), settingsB, vehicles),
};

const options = (mode: PlateReadOptions['mode']): PlateReadOptions => ({
  regions: [], strictRegion: false, textFormats: [], mode, thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: false,
});

/** What a reading returns that a change could move: plates, scores, candidates. */
const fingerprint = (r: PlateReadResult) => JSON.stringify(r.plates.map((p) => [p.plate, p.score, p.candidates]));
const listed = (r: PlateReadResult) => r.plates.map((p) => `${p.plate} ${p.score}`).join(', ') || '-';

console.log(`plates A/B: A ${base} (${checkout.name}), B this working tree with PLATE_READER=${settingsB.plateReader} PLATE_DETECTOR=${settingsB.plateDetector} PLATE_SEARCH=${settingsB.plateSearch}${vehicles ? ` PLATE_VEHICLES=${settingsB.plateVehicles}, vehicle detector on both sides` : ''}; ${split} split; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}${describeCopies(copies)}`);
const sets = await loadPlateSets(dataDir, split);
// pasted-us: the split's crops-us plates pasted into scene photos, as bench:plates reads them
// (bench/lib/plate-paste.ts; the copies do not apply to it): 198 held US plates against
// scenes-us's 63, for telling two readers apart in the pipeline.
// --paste-scale 0.5: at half their size, as a car twice as far off shows them.
const pasted = wanted.includes(PASTED_SET) ? await pastedSet(dataDir, sets['crops-us'] ?? [], pasteScaleOption(flag('paste-scale'))) : [];
if (pasted.length) sets[PASTED_SET] = pasted.map((p) => p.sample);
const pastedPhotos = new Map(pasted.map((p) => [p.sample, p.bytes]));
for (const name of wanted) {
  const all = sets[name];
  if (!all) throw new Error(`no plate set ${name}; sets: ${[...new Set([...Object.keys(sets), PASTED_SET])].join(', ')}`);
  const samples = limit > 0 ? all.slice(0, limit) : all;
  const photos = await Promise.all(samples.map(async (s) => pastedPhotos.get(s) ?? (await photoCopy(s.file, copies)).bytes));
  for (const mode of modes) {
    // Warm-up: first runs allocate the sessions' buffers.
    for (const r of Object.values(readers)) await r.read(await decodeImage(photos[0]!), options(mode));
    const read = (k: 'a' | 'b') => async (i: number) => readers[k].read(await decodeImage(photos[i]!), options(mode));
    const runs = await pairedRuns(photos.length, { a: read('a'), b: read('b') }, fingerprint);
    const rate = (results: PlateReadResult[]) => {
      const hits = results.filter((r, i) => r.plates.some((p) => looseKey(p.plate) === looseKey(samples[i]!.plate))).length;
      return `${((hits / photos.length) * 100).toFixed(1)}%`;
    };
    // Of the labeled plates read, the share that came back on a vehicle (a box, score above 0).
    const onVehicle = (results: PlateReadResult[]) => {
      const read = results.flatMap((r, i) => r.plates.filter((p) => looseKey(p.plate) === looseKey(samples[i]!.plate)).slice(0, 1));
      return `${((read.filter((p) => (p.vehicle?.score ?? 0) > 0).length / Math.max(1, read.length)) * 100).toFixed(1)}%`;
    };
    const vehicleColumns = vehicles ? `  on a vehicle A ${onVehicle(runs.results.a)} B ${onVehicle(runs.results.b)}` : '';
    console.log(`${`${name} ${mode}`.padEnd(20)} n=${String(photos.length).padStart(3)}  O0/I1 A ${rate(runs.results.a)} B ${rate(runs.results.b)}  ${timingColumns(runs)}${vehicleColumns}`);
    if (listDiffs) for (const i of runs.differ) console.log(`  ${samples[i]!.plate}: A ${listed(runs.results.a[i]!)} | B ${listed(runs.results.b[i]!)}`);
  }
}
