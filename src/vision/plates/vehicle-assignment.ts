import type { RawImage } from '../image/decode.js';
import type { Box, PlateReading, VehicleOnly, VehicleType } from './plate.types.js';
import { type OrientationScores, vehicleOrientation } from '../vehicles/vehicle-orientation.js';
import { typeBySize, vehicleSize } from '../vehicles/vehicle-size.js';

export interface FoundVehicle {
  type: VehicleType;
  score: number;
  box: Box;
}

/** What the pipeline needs from a vehicle detector (src/vision/vehicles, when it lands). */
export interface VehicleFinder {
  detect(image: RawImage): Promise<FoundVehicle[]>;
  dominantColour?(image: RawImage, box: Box): Array<{ color: string; score: number }>;
}

const UNKNOWN_COLOUR = [{ color: 'unknown', score: 0 }];
/** A vehicle seen without a plate: its lamps are told apart by where they stand beside the plate
 * (see vehicle-orientation.ts), so without one it stays Unknown. */
const UNKNOWN_ORIENTATION: OrientationScores = [{ orientation: 'Unknown', score: 0 }];

const contains = (v: Box, p: Box) => {
  const cx = (p.xmin + p.xmax) / 2;
  const cy = (p.ymin + p.ymax) / 2;
  return cx >= v.xmin && cx <= v.xmax && cy >= v.ymin && cy <= v.ymax;
};
const area = (b: Box) => (b.xmax - b.xmin) * (b.ymax - b.ymin);

/** The vehicle a plate is on: the smallest box that holds the plate's centre. */
export function vehicleHolding<V extends { box: Box }>(plate: Box, vehicles: readonly V[]): V | undefined {
  return vehicles.filter((c) => contains(c.box, plate)).sort((a, b) => area(a.box) - area(b.box))[0];
}

/** Puts each plate on its vehicle (vehicleHolding), its type checked against the size the plate
 * measures (vehicle-size.ts); with `strict`, plates on no vehicle are dropped. Vehicles left
 * without a plate are returned apart. With `mmc`, the colour comes from the vehicle's pixels
 * when a colour finder exists, and the orientation from the lamps beside the plate. */
export function assignVehicles(
  image: RawImage,
  plates: readonly PlateReading[],
  vehicles: readonly FoundVehicle[] | undefined,
  options: { strict: boolean; mmc: boolean; colour?: VehicleFinder['dominantColour'] },
): { plates: PlateReading[]; vehiclesWithoutPlate: VehicleOnly[] } {
  const used = new Set<FoundVehicle>();
  const colourOf = (v: FoundVehicle | undefined) => (v && options.colour ? options.colour(image, v.box) : UNKNOWN_COLOUR);
  const out: PlateReading[] = [];
  for (const p of plates) {
    const v = vehicles && vehicleHolding(p.box, vehicles);
    // Without a detector nothing can be checked: strict then means nothing, not "drop all".
    if (options.strict && vehicles && !v) continue;
    if (v) used.add(v);
    // The plate is a ruler for its vehicle's size, which overrules a detector type it rules out.
    const size = v && vehicleSize(v.box, p.box, p.region.code, image);
    const reading: PlateReading = { ...p, vehicle: v ? { type: size ? typeBySize(v.type, size) : v.type, score: v.score, box: v.box } : p.vehicle };
    if (options.mmc) {
      reading.color = colourOf(v);
      reading.orientation = vehicleOrientation(image, p.box, v?.box);
    }
    out.push(reading);
  }
  const vehiclesWithoutPlate: VehicleOnly[] = (vehicles ?? []).filter((v) => !used.has(v)).map((v) => ({
    vehicle: { type: v.type, score: v.score, box: v.box },
    ...(options.mmc ? { color: colourOf(v), orientation: UNKNOWN_ORIENTATION } : {}),
  }));
  return { plates: out, vehiclesWithoutPlate };
}
