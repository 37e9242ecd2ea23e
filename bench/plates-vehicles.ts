/**
 * npm run bench:plates-vehicles [-- --data DIR] [--split held|fit|all] [--model FILE] [--base-model FILE] [--threads N] [--floors 0.2,0.3]
 *
 * The vehicles a plate gets, from the plate detector's vehicle head (`--model`, default the
 * shipped models/plate-detector.onnx) against the COCO vehicle detector it was distilled from
 * (what mmc, strict detection and PLATE_VEHICLES=always use), on the dev scenes' labeled plates:
 * - held: the share of labeled plates inside a vehicle box (centre inside, 80% of the plate);
 * - same box: where both hold the plate, their boxes overlap at IoU 0.5 or more; same type:
 *   both name one type for it;
 * - ms: median per photo; the head's is the whole detector pass (plates too). `--base-model`
 *   (a detector without the head) is timed alternately on the same photos: the head's cost.
 * Only the `held` half by default (the head trained on the `fit` half's teacher boxes).
 * `--floors`: the head's figures at each of these vehicle floors (default: VEHICLE_FLOOR), to
 * choose the floor on the `fit` half.
 */
import os from 'node:os';
import { readFile } from 'node:fs/promises';
import { decodeImage } from '../src/vision/image/decode.js';
import { createPlateDetector, VEHICLE_FLOOR } from '../src/vision/plates/plate-detector-model.js';
import type { FoundVehicle } from '../src/vision/plates/vehicle-assignment.js';
import { vehicleHolding } from '../src/vision/plates/vehicle-assignment.js';
import { createVehicleDetector } from '../src/vision/vehicles/vehicle-detector.js';
import { iou, type BoxXyxy } from './lib/boxes.js';
import { DEFAULT_DATA_DIR, DEV_SPLITS, type DevSplit, loadPlateSets } from './lib/plates-dataset.js';
import { fileFlag, flag, median, timed } from './lib/stats.js';

const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const split = flag('split', 'held') as DevSplit;
if (!DEV_SPLITS.includes(split)) throw new Error(`--split must be one of ${DEV_SPLITS.join(', ')}`);
const threads = Number(flag('threads', '2'));
const baseModel = fileFlag('base-model');
const floors = (flag('floors') ?? String(VEHICLE_FLOOR)).split(',').map(Number);

const head = await createPlateDetector({ file: fileFlag('model'), intraOpNumThreads: threads });
const base = baseModel ? await createPlateDetector({ file: baseModel, intraOpNumThreads: threads }) : undefined;
const coco = await createVehicleDetector();

/** The plate's centre in the vehicle's box and 80% of the plate inside it. */
function holds(v: BoxXyxy, p: BoxXyxy): boolean {
  const iw = Math.max(0, Math.min(v.xmax, p.xmax) - Math.max(v.xmin, p.xmin));
  const ih = Math.max(0, Math.min(v.ymax, p.ymax) - Math.max(v.ymin, p.ymin));
  return (iw * ih) / ((p.xmax - p.xmin) * (p.ymax - p.ymin)) >= 0.8;
}
const holder = (vehicles: FoundVehicle[], plate: BoxXyxy) => {
  const v = vehicleHolding(plate, vehicles);
  return v && holds(v.box, plate) ? v : undefined;
};
const pct = (k: number, n: number) => `${n ? ((k / n) * 100).toFixed(1) : '-'}%`;

console.log(`plate vehicles bench: ${split} split, ${threads} intra-op threads, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const sets = await loadPlateSets(dataDir, split);
for (const [name, samples] of Object.entries(sets)) {
  if (!name.startsWith('scenes-')) continue;
  const photos = await Promise.all(samples.map(async (s) => decodeImage(await readFile(s.file))));
  await head.detect(photos[0]!);
  await base?.detect(photos[0]!);
  await coco.detect(photos[0]!, { minScore: 0.2 });
  const n = photos.length;
  const lowest = Math.min(...floors);
  const at = floors.map(() => ({ held: 0, withFallback: 0, fallbacks: 0, both: 0, sameBox: 0, sameType: 0, unmatched: 0 }));
  let cocoHeld = 0;
  const headMs: number[] = [], baseMs: number[] = [], cocoMs: number[] = [];
  for (const [i, photo] of photos.entries()) {
    const plate = samples[i]!.box!;
    // Alternate which detector runs first: the one after the COCO detector finds colder caches.
    if (base && i % 2 === 1) baseMs.push((await timed(() => base.detect(photo))).ms);
    const byHead = await timed(() => head.detect(photo, { vehicleMinScore: lowest }));
    headMs.push(byHead.ms);
    if (base && i % 2 === 0) baseMs.push((await timed(() => base.detect(photo))).ms);
    const byCoco = await timed(() => coco.detect(photo, { minScore: 0.2 }));
    cocoMs.push(byCoco.ms);
    const c = holder(byCoco.value, plate);
    cocoHeld += c ? 1 : 0;
    floors.forEach((floor, k) => {
      const vehicles = byHead.value.vehicles.filter((v) => v.score >= floor);
      const h = holder(vehicles, plate);
      const s = at[k]!;
      s.held += h ? 1 : 0;
      // The pipeline asks the COCO detector where the head leaves a plate on no vehicle.
      s.fallbacks += h ? 0 : 1;
      s.withFallback += h || c ? 1 : 0;
      s.unmatched += vehicles.filter((v) => byCoco.value.every((o) => iou(v.box, o.box) < 0.3)).length;
      if (h && c) {
        s.both++;
        s.sameBox += iou(h.box, c.box) >= 0.5 ? 1 : 0;
        s.sameType += h.type === c.type ? 1 : 0;
      }
    });
  }
  const baseNote = base ? `, detector without the head ${median(baseMs).toFixed(1)} ms` : '';
  console.log(`${name.padEnd(10)} n=${String(n).padStart(3)}  plate on a vehicle: COCO ${pct(cocoHeld, n)}  median: head (whole detector) ${median(headMs).toFixed(1)} ms${baseNote}, COCO ${median(cocoMs).toFixed(1)} ms`);
  floors.forEach((floor, k) => {
    const s = at[k]!;
    console.log(`  head at ${floor.toFixed(2)}: plate on a vehicle ${pct(s.held, n)}, with the COCO detector where it holds none ${pct(s.withFallback, n)} (asked on ${pct(s.fallbacks, n)} of photos); where both hold it: same box ${pct(s.sameBox, s.both)}, same type ${pct(s.sameType, s.both)} (${s.both}); boxes COCO has none near ${(s.unmatched / n).toFixed(2)}/photo`);
  });
}
