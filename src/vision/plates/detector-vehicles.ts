import { boxIou } from '../vehicles/centernet-decode.js';
import { vehicleTypeFor } from '../vehicles/vehicle-types.js';
import type { Box } from './plate.types.js';
import type { FoundVehicle } from './vehicle-assignment.js';

/** The classes of the plate detector's vehicle head, in its map order
 * (training/vigil_train/detector.py VEHICLE_CLASSES): the COCO classes the teacher named. */
export const HEAD_VEHICLE_CLASSES = ['car', 'truck', 'bus', 'motorcycle'] as const;
/** Cells of the vehicle maps are 16 input pixels. */
const VEHICLE_STRIDE = 16;
/** Maps per class (heat, its 3x3 maximum) and the shared four (log w, log h, offset x, y). The
 * exported per-class maxima go unread: peaks are picked on the summed classes (decodeVehicles). */
export const VEHICLE_MAP_COUNT = 2 * HEAD_VEHICLE_CLASSES.length + 4;
/** One vehicle labeled twice (car and truck on the same box): the surer label stands, as the
 * COCO detector's boxes are deduplicated (vehicle-detector.ts). */
const SAME_VEHICLE_IOU = 0.6;

/**
 * Vehicles from the head's maps (N x VEHICLE_MAP_COUNT x rows x cols), in photo pixels, surest
 * first. A cell's vehicle score is the sum of its class heats: the teacher named one vehicle a car
 * here and a truck there, so the head spreads a vehicle over the classes and no single class
 * peaks as high as the vehicle is sure. A vehicle is a cell whose score is at least `minScore` and
 * its 3x3 neighbourhood's highest (CenterNet's peak picking), of its strongest class; boxes that
 * still overlap much keep the surer one. `scale` maps photo to input pixels.
 */
export function decodeVehicles(maps: Float32Array, rows: number, cols: number, scale: number, minScore: number, photo: { width: number; height: number }): FoundVehicle[] {
  const plane = rows * cols;
  const classes = HEAD_VEHICLE_CLASSES.length;
  const at = (map: number, i: number) => maps[map * plane + i]!;
  const score = new Float32Array(plane);
  for (let c = 0; c < classes; c++) for (let i = 0; i < plane; i++) score[i]! += at(c, i);
  const clamp = (v: number, max: number) => Math.round(Math.min(max, Math.max(0, v / scale)));
  const peaks: Array<{ score: number; cocoClass: string; box: Box }> = [];
  for (let i = 0; i < plane; i++) {
    const s = Math.min(1, score[i]!);
    if (s < minScore || !isLocalMaximum(score, i, rows, cols)) continue;
    let best = 0;
    for (let c = 1; c < classes; c++) if (at(c, i) > at(best, i)) best = c;
    const w = Math.exp(at(2 * classes, i));
    const h = Math.exp(at(2 * classes + 1, i));
    const cx = ((i % cols) + at(2 * classes + 2, i)) * VEHICLE_STRIDE;
    const cy = (Math.floor(i / cols) + at(2 * classes + 3, i)) * VEHICLE_STRIDE;
    const box = { xmin: clamp(cx - w / 2, photo.width), ymin: clamp(cy - h / 2, photo.height), xmax: clamp(cx + w / 2, photo.width), ymax: clamp(cy + h / 2, photo.height) };
    if (box.xmax > box.xmin && box.ymax > box.ymin) peaks.push({ score: s, cocoClass: HEAD_VEHICLE_CLASSES[best]!, box });
  }
  const kept: typeof peaks = [];
  for (const p of peaks.sort((a, b) => b.score - a.score)) {
    if (!kept.some((k) => boxIou(k.box, p.box) > SAME_VEHICLE_IOU)) kept.push(p);
  }
  return kept.map((v) => ({ type: vehicleTypeFor(v.cocoClass, v.box, photo.width, photo.height), score: Math.round(v.score * 1000) / 1000, box: v.box }));
}

/** Whether cell `i` holds the highest value of its 3x3 neighbourhood (ties count as highest). */
function isLocalMaximum(map: Float32Array, i: number, rows: number, cols: number): boolean {
  const x = i % cols;
  const y = Math.floor(i / cols);
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
    const yy = y + dy;
    const xx = x + dx;
    if ((dx || dy) && yy >= 0 && yy < rows && xx >= 0 && xx < cols && map[yy * cols + xx]! > map[i]!) return false;
  }
  return true;
}
