/** Vehicle types of the plate reader response. */
export const VEHICLE_TYPES = ['Big Truck', 'Bus', 'Motorcycle', 'Pickup Truck', 'Sedan', 'SUV', 'Van', 'Unknown'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

export interface Box { xmin: number; ymin: number; xmax: number; ymax: number }

/** COCO classes (0-based ids of the CenterNet head, same order as human's labels.ts) that are
 * vehicles for the plate reader. Bicycles carry no plate, so they are not vehicles here. */
export const COCO_VEHICLE_CLASSES: Readonly<Record<number, string>> = { 2: 'car', 3: 'motorcycle', 5: 'bus', 7: 'truck' };

/**
 * COCO -> response type. COCO has one `car` class (sedans, SUVs, hatchbacks, minivans alike)
 * and one `truck` class (pickups to semis). What we can honestly tell:
 * - motorcycle -> Motorcycle, bus -> Bus.
 * - truck -> Big Truck when the box is large relative to the image or clearly taller than a
 *   pickup (height/width >= 0.9 seen from front/rear, or a long box > 2.2:1 seen side-on);
 *   otherwise Pickup Truck. This is a heuristic, not a classifier.
 * - car -> Sedan by default (the commonest body); SUV/Van would need a body-shape model we do
 *   not have, so we only say `SUV` when the box is markedly tall for a car seen front/rear
 *   (height/width >= 0.95), and never `Van` from a `car`.
 * - anything else -> Unknown.
 */
export function vehicleTypeFor(cocoClass: string, box: Box, imageWidth: number, imageHeight: number): VehicleType {
  const w = Math.max(1, box.xmax - box.xmin);
  const h = Math.max(1, box.ymax - box.ymin);
  const hw = h / w;
  switch (cocoClass) {
    case 'motorcycle':
      return 'Motorcycle';
    case 'bus':
      return 'Bus';
    case 'truck': {
      const area = (w * h) / Math.max(1, imageWidth * imageHeight);
      return hw >= 0.9 || w / h > 2.2 || area > 0.6 ? 'Big Truck' : 'Pickup Truck';
    }
    case 'car':
      return hw >= 0.95 ? 'SUV' : 'Sedan';
    default:
      return 'Unknown';
  }
}
