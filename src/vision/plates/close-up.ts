import type { Box, PlateReadResult } from './plate.types.js';

/** A close-up is read shrunk to this longer side: a plate crop's size (under PLATE_PASS_MIN_SIDE),
 * where the crop path reads plates-crops-us (about 100-400 px wide) best. */
export const CLOSE_UP_CROP_SIDE = 320;

/** A close-up's plate spans at least this share of the photo's width: a box the detector finds
 * smaller in the shrunk photo is a scene's plate (a car photographed close), which the scene's
 * own passes read better than a crop-sized copy would show it. Fit halves, 2026-11-28: in
 * close-ups (40 plates-crops-us crops enlarged to 1280 px) the shrunk photo's box spans 0.89-1.0
 * of the width, in the scene photos looked at shrunk 0.62 at most. */
const CLOSE_UP_MIN_WIDTH = 0.75;

/** A photo is looked at shrunk only where the detector's surest box in it is below this: in a
 * close-up it boxes pieces of the plate at 0.3-0.76 (40 plates-crops-us fit crops enlarged to
 * 1280 px, 2026-11-28), while in 79% of the scene photos (fit halves) its surest box is above. */
export const CLOSE_UP_CHECK_BELOW = 0.8;

/** Whether the detector's boxes in the shrunk photo (CLOSE_UP_ZOOM) make it a close-up: one
 * spans a good part of the photo, surer than anything it boxed in the photo as it is. */
export function isCloseUp(photo: { width: number }, boxes: ReadonlyArray<{ box: Box; score: number }>, surestAsItIs: number): boolean {
  return boxes.some(({ box, score }) => score > surestAsItIs && box.xmax - box.xmin >= CLOSE_UP_MIN_WIDTH * photo.width);
}

/** A box of the shrunk picture in the photo's pixels, inside the photo. */
function scaledBox(b: Box, factor: number, width: number, height: number): Box {
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, Math.round(v * factor)));
  return { xmin: clamp(b.xmin, width), ymin: clamp(b.ymin, height), xmax: clamp(b.xmax, width), ymax: clamp(b.ymax, height) };
}

/** A result read on a picture `factor` times smaller than the photo, in the photo's pixels. */
export function scaledResult(result: PlateReadResult, factor: number, photo: { width: number; height: number }): PlateReadResult {
  const box = (b: Box) => scaledBox(b, factor, photo.width, photo.height);
  return {
    plates: result.plates.map((p) => ({ ...p, box: box(p.box), vehicle: p.vehicle && { ...p.vehicle, box: box(p.vehicle.box) } })),
    vehiclesWithoutPlate: result.vehiclesWithoutPlate.map((v) => ({ ...v, vehicle: { ...v.vehicle, box: box(v.vehicle.box) } })),
  };
}
