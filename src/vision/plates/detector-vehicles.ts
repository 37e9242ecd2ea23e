import { boxIou } from '../vehicles/centernet-decode.js';
import { vehicleTypeFor } from '../vehicles/vehicle-types.js';
import type { Box } from './plate.types.js';
import type { FoundVehicle } from './vehicle-assignment.js';

/** The classes of the plate detector's vehicle head, in its map order
 * (training/vigil_train/detector.py VEHICLE_CLASSES): the COCO classes the teacher named. */
export const HEAD_VEHICLE_CLASSES = ['car', 'truck', 'bus', 'motorcycle'] as const;
/** Cells of the vehicle maps are 16 input pixels. */
const VEHICLE_STRIDE = 16;
/** Maps per class (heat, its 3x3 maximum) and the shared four (log w, log h, offset x, y). */
export const VEHICLE_MAP_COUNT = 2 * HEAD_VEHICLE_CLASSES.length + 4;
/** One vehicle labeled twice (car and truck on the same box): the surer label stands, as the
 * COCO detector's boxes are deduplicated (vehicle-detector.ts). */
const SAME_VEHICLE_IOU = 0.6;

/**
 * Vehicles from the head's maps (N x VEHICLE_MAP_COUNT x rows x cols), in photo pixels:
 * CenterNet peaks per class, at least `minScore`, one box per vehicle across classes, surest
 * first. `scale` maps photo to input pixels.
 */
export function decodeVehicles(maps: Float32Array, rows: number, cols: number, scale: number, minScore: number, photo: { width: number; height: number }): FoundVehicle[] {
  const plane = rows * cols;
  const classes = HEAD_VEHICLE_CLASSES.length;
  const at = (map: number, i: number) => maps[map * plane + i]!;
  const clamp = (v: number, max: number) => Math.round(Math.min(max, Math.max(0, v / scale)));
  const peaks: Array<{ score: number; cocoClass: string; box: Box }> = [];
  for (let c = 0; c < classes; c++) {
    for (let i = 0; i < plane; i++) {
      const heat = at(c, i);
      if (heat < minScore || heat < at(classes + c, i)) continue;
      const w = Math.exp(at(2 * classes, i));
      const h = Math.exp(at(2 * classes + 1, i));
      const cx = ((i % cols) + at(2 * classes + 2, i)) * VEHICLE_STRIDE;
      const cy = (Math.floor(i / cols) + at(2 * classes + 3, i)) * VEHICLE_STRIDE;
      const box = { xmin: clamp(cx - w / 2, photo.width), ymin: clamp(cy - h / 2, photo.height), xmax: clamp(cx + w / 2, photo.width), ymax: clamp(cy + h / 2, photo.height) };
      if (box.xmax > box.xmin && box.ymax > box.ymin) peaks.push({ score: heat, cocoClass: HEAD_VEHICLE_CLASSES[c]!, box });
    }
  }
  const kept: typeof peaks = [];
  for (const p of peaks.sort((a, b) => b.score - a.score)) {
    if (!kept.some((k) => boxIou(k.box, p.box) > SAME_VEHICLE_IOU)) kept.push(p);
  }
  return kept.map((v) => ({ type: vehicleTypeFor(v.cocoClass, v.box, photo.width, photo.height), score: Math.round(v.score * 1000) / 1000, box: v.box }));
}
