/**
 * npm run bench:plates-orientation [-- --data DIR] [--no-vehicles]
 *
 * Front / Rear / Unknown (`mmc=true`'s `orientation`, src/vision/vehicles/vehicle-orientation.ts)
 * against the orientations labeled by eye in bench/labels/plate-orientation.json, on the
 * labeled plate of each plates-scenes photo. Per label set (`fit`: looked at while the thresholds
 * were chosen; `held-out`: labeled before the method first ran on them): how many photos get an
 * answer rather than Unknown, how many answers are right, precision and recall of Front and of
 * Rear, and beside them the baseline of answering Rear always. The vehicle box comes from the
 * COCO detector as in the API (the smallest vehicle holding the plate's centre; `--no-vehicles`:
 * the whole photo).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeImage } from '../src/vision/image/decode.js';
import { createVehicleDetector } from '../src/vision/vehicles/vehicle-detector.js';
import { lampEvidence, orientationFromLamps, type VehicleOrientation } from '../src/vision/vehicles/vehicle-orientation.js';
import { dataDirFromArgs, loadPlateScenes, type PlateBox } from './lib/plates-dataset.js';

interface Label { file: string; orientation: 'Front' | 'Rear'; set: string }

const dataDir = dataDirFromArgs();
const withVehicles = !process.argv.includes('--no-vehicles');
const labels = (JSON.parse(await readFile(path.join(import.meta.dirname, 'labels', 'plate-orientation.json'), 'utf8')) as { items: Label[] }).items;
const scenes = new Map((await loadPlateScenes(dataDir)).map((s) => [path.relative(path.join(dataDir, 'plates-scenes'), s.file), s]));
const detector = withVehicles ? await createVehicleDetector() : undefined;

const holds = (v: PlateBox, p: PlateBox) => {
  const cx = (p.xmin + p.xmax) / 2;
  const cy = (p.ymin + p.ymax) / 2;
  return cx >= v.xmin && cx <= v.xmax && cy >= v.ymin && cy <= v.ymax;
};
const area = (b: PlateBox) => (b.xmax - b.xmin) * (b.ymax - b.ymin);

const outcomes: Array<{ label: Label; got: VehicleOrientation; score: number }> = [];
for (const label of labels) {
  const scene = scenes.get(label.file);
  if (!scene) throw new Error(`${label.file} is not in plates-scenes`);
  const image = await decodeImage(await readFile(scene.file));
  const vehicle = detector && (await detector.detect(image)).filter((v) => holds(v.box, scene.box)).sort((a, b) => area(a.box) - area(b.box))[0];
  const [top] = orientationFromLamps(lampEvidence(image, scene.box, vehicle?.box));
  outcomes.push({ label, got: top!.orientation, score: top!.score });
}

const pct = (n: number, d: number) => (d === 0 ? '   -  ' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
console.log(`orientation bench: ${labels.length} labeled photos, vehicle box ${withVehicles ? 'from the COCO detector' : 'not used'}`);
for (const set of [...new Set(labels.map((l) => l.set)), 'all']) {
  const rows = outcomes.filter((o) => set === 'all' || o.label.set === set);
  const answered = rows.filter((o) => o.got !== 'Unknown');
  const right = answered.filter((o) => o.got === o.label.orientation);
  const rear = rows.filter((o) => o.label.orientation === 'Rear').length;
  const line = (side: 'Front' | 'Rear') => {
    const said = answered.filter((o) => o.got === side);
    const truth = rows.filter((o) => o.label.orientation === side);
    return `${side} precision ${pct(said.filter((o) => o.label.orientation === side).length, said.length)} (${said.length} said) recall ${pct(said.filter((o) => o.label.orientation === side).length, truth.length)} (of ${truth.length})`;
  };
  console.log(`${set.padEnd(9)} n=${String(rows.length).padStart(3)}  answered ${pct(answered.length, rows.length)}  right when answered ${pct(right.length, answered.length)}  | ${line('Front')} | ${line('Rear')} | always Rear: right ${pct(rear, rows.length)}`);
}
if (process.argv.includes('--misses')) {
  for (const o of outcomes.filter((x) => x.got !== 'Unknown' && x.got !== x.label.orientation)) console.log(`  wrong ${o.label.set} ${o.label.file}: ${o.label.orientation}, said ${o.got} ${o.score}`);
}
