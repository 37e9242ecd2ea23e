/**
 * npm run bench:plates-mmc [-- --data DIR] [--misses] [--vehicles coco|head] [--model FILE]
 *
 * What `mmc=true` says of the vehicle under a plate, against bench/labels/plates-scenes-vehicles.json
 * (142 plates-scenes photos labeled by eye: which end faces the camera, and what the vehicle is).
 * Each photo is read as the API reads it (regular mode, mmc, the COCO vehicle detector); the
 * result whose box holds the labeled plate's centre is scored (photos where none does are counted
 * apart).
 * - orientation (src/vision/vehicles/vehicle-orientation.ts), per label set (`fit`: looked at
 *   while its thresholds were chosen; `held-out`: labeled before it first ran on them): share
 *   answered rather than Unknown, right when answered, precision and recall of Front and Rear,
 *   and answering Rear always beside them;
 * - vehicle type: the share whose type is of the labeled kind's family (a car, pickup or van as
 *   Sedan, SUV, Pickup Truck or Van; a big truck or bus as Big Truck or Bus), with the plate's size
 *   check (vehicle-size.ts) and, from the same detections, without it (the detector's type as
 *   vehicle-types.ts maps it); and how the types spread;
 * - colour: the share whose first colour is one the label accepts (a silver car may be called
 *   white; a maroon one red or brown), and whose three colours hold one.
 * `--vehicles head` takes the vehicles from the plate detector's vehicle head instead of the COCO
 * detector (what calls without mmc get), to compare the two on the same labels.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeImage, type RawImage } from '../src/vision/image/decode.js';
import { createOcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { createPlateDetector } from '../src/vision/plates/plate-detector-model.js';
import { createPlateTextModel } from '../src/vision/plates/plate-text-model.js';
import { createPlatePipeline } from '../src/vision/plates/plate-pipeline.js';
import { type FoundVehicle, vehicleHolding } from '../src/vision/plates/vehicle-assignment.js';
import type { Box, PlateReadOptions, VehicleType } from '../src/vision/plates/plate.types.js';
import { dominantColour } from '../src/vision/vehicles/vehicle-colour.js';
import { createVehicleDetector } from '../src/vision/vehicles/vehicle-detector.js';
import { dataDirFromArgs, loadPlateScenes } from './lib/plates-dataset.js';
import { fileFlag, flag } from './lib/stats.js';

type Kind = 'car' | 'pickup' | 'van' | 'big truck' | 'bus';
interface Label { file: string; orientation: 'Front' | 'Rear'; vehicle: Kind; color: string[]; set: string }

const dataDir = dataDirFromArgs();
const labels = (JSON.parse(await readFile(path.join(import.meta.dirname, 'labels', 'plates-scenes-vehicles.json'), 'utf8')) as { items: Label[] }).items;
const scenes = new Map((await loadPlateScenes(dataDir)).map((s) => [path.relative(path.join(dataDir, 'plates-scenes'), s.file), s]));

const source = flag('vehicles', 'coco');
if (source !== 'coco' && source !== 'head') throw new Error('--vehicles must be coco or head');
const coco = source === 'coco' ? await createVehicleDetector() : undefined;
const head = source === 'head' ? await createPlateDetector({ file: fileFlag('model') }) : undefined;
const findVehicles = async (img: RawImage): Promise<FoundVehicle[]> => (coco ? coco.detect(img, { minScore: 0.2 }) : (await head!.detect(img)).vehicles);
let detections: FoundVehicle[] = [];
const pipeline = createPlatePipeline(await createOcrEngine(), {
  // As the recognition worker wires it; the detections are kept for the type without the size check.
  vehicles: {
    detect: async (img) => (detections = await findVehicles(img)),
    dominantColour,
  },
  reader: await createPlateTextModel(),
});
const options: PlateReadOptions = { regions: [], strictRegion: false, textFormats: [], mode: 'normal', thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: true };

const holds = (b: Box, x: number, y: number) => x >= b.xmin && x <= b.xmax && y >= b.ymin && y <= b.ymax;
const BIG: ReadonlySet<VehicleType> = new Set(['Big Truck', 'Bus']);
const CAR_LIKE: ReadonlySet<VehicleType> = new Set(['Sedan', 'SUV', 'Pickup Truck', 'Van']);
const familyRight = (kind: Kind, type: VehicleType | undefined) => type !== undefined && (kind === 'big truck' || kind === 'bus' ? BIG.has(type) : CAR_LIKE.has(type));

interface Outcome { label: Label; orientation: string; score: number; type?: VehicleType; detectorType?: VehicleType; colors: string[] }
const outcomes: Outcome[] = [];
let unread = 0;
for (const label of labels) {
  const scene = scenes.get(label.file);
  if (!scene) throw new Error(`${label.file} is not in plates-scenes`);
  const cx = (scene.box.xmin + scene.box.xmax) / 2;
  const cy = (scene.box.ymin + scene.box.ymax) / 2;
  detections = [];
  const result = await pipeline.read(await decodeImage(await readFile(scene.file)), options);
  const plate = result.plates.find((p) => holds(p.box, cx, cy));
  if (!plate) {
    unread++;
    continue;
  }
  const onDetector = vehicleHolding(plate.box, detections);
  const [top] = plate.orientation ?? [{ orientation: 'Unknown', score: 0 }];
  outcomes.push({ label, orientation: top!.orientation, score: top!.score, type: plate.vehicle?.type, detectorType: onDetector?.type, colors: (plate.color ?? []).map((c) => c.color) });
}

const pct = (n: number, d: number) => (d === 0 ? '   -  ' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
console.log(`plates mmc bench (vehicles: ${source === 'coco' ? 'COCO detector' : 'the plate detector\'s vehicle head'}): ${labels.length} labeled photos, ${outcomes.length} with the labeled plate found (${unread} without)`);
console.log('orientation');
for (const set of [...new Set(labels.map((l) => l.set)), 'all']) {
  const rows = outcomes.filter((o) => set === 'all' || o.label.set === set);
  const answered = rows.filter((o) => o.orientation !== 'Unknown');
  const right = answered.filter((o) => o.orientation === o.label.orientation);
  const rear = rows.filter((o) => o.label.orientation === 'Rear').length;
  const side = (s: 'Front' | 'Rear') => {
    const said = answered.filter((o) => o.orientation === s);
    const ok = said.filter((o) => o.label.orientation === s).length;
    return `${s} precision ${pct(ok, said.length)} (${said.length} said) recall ${pct(ok, rows.filter((o) => o.label.orientation === s).length)}`;
  };
  console.log(`  ${set.padEnd(9)} n=${String(rows.length).padStart(3)}  answered ${pct(answered.length, rows.length)}  right when answered ${pct(right.length, answered.length)}  | ${side('Front')} | ${side('Rear')} | always Rear right ${pct(rear, rows.length)}`);
}
const spread = (pick: (o: Outcome) => VehicleType | undefined) => {
  const n = new Map<string, number>();
  for (const o of outcomes) n.set(pick(o) ?? 'no vehicle', (n.get(pick(o) ?? 'no vehicle') ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1]).map(([t, c]) => `${t} ${c}`).join(', ');
};
const withVehicle = outcomes.filter((o) => o.type !== undefined);
console.log(`vehicle type (${withVehicle.length} plates on a detected vehicle; kinds labeled: ${[...new Set(labels.map((l) => l.vehicle))].map((k) => `${k} ${outcomes.filter((o) => o.label.vehicle === k).length}`).join(', ')})`);
console.log(`  family right, plate size checked  ${pct(withVehicle.filter((o) => familyRight(o.label.vehicle, o.type)).length, withVehicle.length)}  types: ${spread((o) => o.type)}`);
console.log(`  family right, detector type alone ${pct(withVehicle.filter((o) => familyRight(o.label.vehicle, o.detectorType)).length, withVehicle.length)}  types: ${spread((o) => o.detectorType)}`);
console.log(`colour (${withVehicle.length} plates on a detected vehicle; a label accepts one to three names, e.g. silver or white)`);
for (const set of [...new Set(labels.map((l) => l.set)), 'all']) {
  const rows = withVehicle.filter((o) => set === 'all' || o.label.set === set);
  console.log(`  ${set.padEnd(9)} n=${String(rows.length).padStart(3)}  top colour accepted ${pct(rows.filter((o) => o.label.color.includes(o.colors[0]!)).length, rows.length)}  an accepted one among the three listed ${pct(rows.filter((o) => o.colors.some((c) => o.label.color.includes(c))).length, rows.length)}  (unknown ${rows.filter((o) => o.colors[0] === 'unknown').length})`);
}
if (process.argv.includes('--misses')) {
  for (const o of outcomes) {
    if (o.orientation !== 'Unknown' && o.orientation !== o.label.orientation) console.log(`  orientation ${o.label.set} ${o.label.file}: ${o.label.orientation}, said ${o.orientation} ${o.score}`);
    if (o.type && !familyRight(o.label.vehicle, o.type)) console.log(`  type ${o.label.file}: ${o.label.vehicle}, said ${o.type} (detector ${o.detectorType})`);
    if (o.type && !o.label.color.includes(o.colors[0]!)) console.log(`  colour ${o.label.file}: ${o.label.color.join('|')}, said ${o.colors.join(', ')}`);
  }
}
