import type { Box, VehicleType } from './vehicle-types.js';

/**
 * The plate as a ruler. COCO's head often names a car seen close from behind `bus` or `truck`
 * (a photo-filling box looks like one) and a car's end `motorcycle`; but the plate on it has a
 * known width, so the vehicle's box gives its size in metres, and a 1.4 m tall box is no bus
 * and a 3 m wide one no motorcycle.
 */

/** Plate widths in metres by country (ISO 3166 alpha-2): North American plates are 12 inches,
 * Brazil's 400 mm (old grey and Mercosur), Australia's 372 mm; Europe's long plates 520 mm. */
const PLATE_WIDTH_M: Readonly<Record<string, number>> = {
  us: 0.305, ca: 0.305, mx: 0.305,
  br: 0.4,
  au: 0.372,
  ...Object.fromEntries(
    ['at', 'be', 'bg', 'hr', 'cy', 'cz', 'dk', 'ee', 'fi', 'fr', 'de', 'gr', 'hu', 'ie', 'it', 'lv', 'lt', 'lu', 'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'si', 'es', 'se', 'gb', 'no', 'ch']
      .map((c) => [c, 0.52]),
  ),
};

/** The width in metres of a plate of this region (`us-ca` counts as `us`), if known. */
export function plateWidthMetres(regionCode: string): number | undefined {
  return PLATE_WIDTH_M[regionCode.toLowerCase().split('-')[0]!];
}

export interface VehicleSize {
  width: number;
  height: number;
  /** The box touches the photo's left or right edge: the vehicle is at least this wide. */
  widthCut: boolean;
  /** The box touches the photo's top or bottom edge: the vehicle is at least this tall. */
  heightCut: boolean;
}

/** A box within this many pixels of the photo's edge is taken as cut by it. */
const EDGE_PX = 3;

/** The vehicle's width and height in metres, measured with the plate it carries. */
export function vehicleSize(vehicle: Box, plate: Box, regionCode: string, photo: { width: number; height: number }): VehicleSize | undefined {
  const plateMetres = plateWidthMetres(regionCode);
  const platePx = plate.xmax - plate.xmin;
  if (plateMetres === undefined || platePx <= 0) return undefined;
  const perPx = plateMetres / platePx;
  return {
    width: (vehicle.xmax - vehicle.xmin) * perPx,
    height: (vehicle.ymax - vehicle.ymin) * perPx,
    widthCut: vehicle.xmin <= EDGE_PX || vehicle.xmax >= photo.width - EDGE_PX,
    heightCut: vehicle.ymin <= EDGE_PX || vehicle.ymax >= photo.height - EDGE_PX,
  };
}

/** Wider than any motorcycle seen from its end, mirrors included. */
const MOTORCYCLE_MAX_WIDTH = 1.3;
/** Buses and lorries stand taller than this; cars, SUVs, pickups and most vans do not. */
const BIG_MIN_HEIGHT = 2.2;
/** Saloons and hatchbacks are under this; SUVs and pickups over it. */
const TALL_CAR_HEIGHT = 1.6;

/**
 * The detector's type checked against the vehicle's size. A box cut by the photo's edge is only
 * a lower bound on that side, so it can prove a vehicle big (too wide for a motorcycle) but never
 * small: a close-up of a bus's rear stays a bus.
 */
export function typeBySize(detected: VehicleType, size: VehicleSize): VehicleType {
  const truckLike = detected === 'Big Truck' || detected === 'Pickup Truck';
  const carByHeight = (): VehicleType => {
    if (size.heightCut) return truckLike ? 'Pickup Truck' : detected === 'SUV' ? 'SUV' : 'Sedan';
    if (size.height < TALL_CAR_HEIGHT) return 'Sedan';
    return truckLike ? 'Pickup Truck' : 'SUV';
  };
  switch (detected) {
    case 'Motorcycle':
      return size.width > MOTORCYCLE_MAX_WIDTH ? carByHeight() : detected;
    case 'Bus':
    case 'Big Truck':
      return !size.heightCut && size.height < BIG_MIN_HEIGHT ? carByHeight() : detected;
    case 'Pickup Truck':
    case 'Sedan':
    case 'SUV':
      return carByHeight();
    default:
      return detected;
  }
}
