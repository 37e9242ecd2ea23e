/**
 * How often does a detected vehicle box contain the labeled plate of plates-scenes?
 * `npx tsx bench/lib/plates-vehicles-check.ts [--data DIR] [--min-score 0.2] [--limit N]`
 * Timings are wall-clock on a shared 2-core machine: noisy, compare runs side by side only.
 */
import { readFile } from 'node:fs/promises';
import { decodeImage } from '../../src/vision/image/decode.js';
import { createVehicleDetector } from '../../src/vision/vehicles/vehicle-detector.js';
import { dataDirFromArgs, loadPlateScenes, type PlateBox } from './plates-dataset.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
}

/** The plate centre inside the vehicle box, and at least 80% of the plate area inside. */
function contains(v: PlateBox, p: PlateBox): boolean {
  const cx = (p.xmin + p.xmax) / 2;
  const cy = (p.ymin + p.ymax) / 2;
  if (cx < v.xmin || cx > v.xmax || cy < v.ymin || cy > v.ymax) return false;
  const iw = Math.max(0, Math.min(v.xmax, p.xmax) - Math.max(v.xmin, p.xmin));
  const ih = Math.max(0, Math.min(v.ymax, p.ymax) - Math.max(v.ymin, p.ymin));
  return (iw * ih) / ((p.xmax - p.xmin) * (p.ymax - p.ymin)) >= 0.8;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

const dataDir = dataDirFromArgs();
const minScore = arg('--min-score', 0.2);
const items = (await loadPlateScenes(dataDir)).slice(0, arg('--limit', Infinity));
const detector = await createVehicleDetector();
const byRegion = new Map<string, { n: number; contained: number; anyVehicle: number; ms: number[] }>();
const types = new Map<string, number>();
for (const item of items) {
  const image = await decodeImage(await readFile(item.file));
  const t0 = performance.now();
  const vehicles = await detector.detect(image, { minScore });
  const ms = performance.now() - t0;
  const r = byRegion.get(item.region) ?? { n: 0, contained: 0, anyVehicle: 0, ms: [] };
  r.n++;
  r.ms.push(ms);
  if (vehicles.length > 0) r.anyVehicle++;
  const holder = vehicles.find((v) => contains(v.box, item.box));
  if (holder) {
    r.contained++;
    types.set(holder.type, (types.get(holder.type) ?? 0) + 1);
  }
  byRegion.set(item.region, r);
}
const all = { n: 0, contained: 0, anyVehicle: 0, ms: [] as number[] };
console.log(`plates-scenes vehicle check (min score ${minScore}, ${dataDir})`);
for (const [region, r] of [...byRegion].sort()) {
  all.n += r.n; all.contained += r.contained; all.anyVehicle += r.anyVehicle; all.ms.push(...r.ms);
  console.log(`${region}: ${r.n} images, plate inside a vehicle box ${(100 * r.contained / r.n).toFixed(1)}%, any vehicle ${(100 * r.anyVehicle / r.n).toFixed(1)}%, median ${median(r.ms).toFixed(0)} ms`);
}
console.log(`all: ${all.n} images, plate inside a vehicle box ${(100 * all.contained / all.n).toFixed(1)}%, any vehicle ${(100 * all.anyVehicle / all.n).toFixed(1)}%, median ${median(all.ms).toFixed(0)} ms/image (detector only, decode excluded; shared CPU, noisy)`);
console.log('types of the containing vehicle:', Object.fromEntries(types));
