import type { Quad } from '../image/quad.js';

export type { Point } from '../image/warp.js';
/** Corners clockwise from top-left, in image pixels. */
export type { Quad };

/** A text region that may be a plate, in full-image pixels. */
export interface PlateCandidate {
  /** One quad per text line, top to bottom (two for stacked two-line plates). */
  lines: Quad[];
  /** Detector confidence times plate-likeness, 0..1. */
  dscore: number;
  /** The lines come from a close-up detection (tight boxes from full-resolution pixels). */
  closeUp?: boolean;
  /** The one line is the plate detector's box of the whole plate, not a text line found in it. */
  wholePlate?: boolean;
  /** Width over height of the plate detector's box the candidate came from (its close-up lines
   * keep it): the detector learned the shape of whole plates, which tells a North American plate
   * (2:1) from a Brazilian or European one (3.1:1, 4.7:1) where their numbers read alike. */
  plateAspect?: number;
}

export type PlateMode = 'normal' | 'fast' | 'redaction';

/** What plate reading produces, and the reader as the plate service calls it. */

export type VehicleType = 'Big Truck' | 'Bus' | 'Motorcycle' | 'Pickup Truck' | 'Sedan' | 'SUV' | 'Van' | 'Unknown';
export const VEHICLE_COLOURS = ['black', 'blue', 'brown', 'green', 'red', 'silver', 'white', 'yellow', 'unknown'] as const;

export interface Box {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

export interface PlateReadOptions {
  /** Region codes that guide the reading (`us-ca`, `br`, `gb`). */
  regions: string[];
  /** Only readings matching a template of `regions`. */
  strictRegion: boolean;
  /** Regular expressions that guide the reading. */
  textFormats: string[];
  /** `fast`: one detection pass at lower resolution; `redaction`: favour recall. */
  mode: 'normal' | 'fast' | 'redaction';
  /** Detection score floor. */
  thresholdD: number;
  /** Reading score floor. */
  thresholdO: number;
  /** Drop plates that are not on a vehicle. */
  strictDetection: boolean;
  /** Colour, orientation and make/model of the vehicle. */
  mmc: boolean;
}

export interface PlateReading {
  box: Box;
  /** Lower case, no spaces. */
  plate: string;
  region: { code: string; score: number };
  score: number;
  candidates: Array<{ plate: string; score: number }>;
  dscore: number;
  vehicle: { type: VehicleType; score: number; box: Box } | undefined;
  color?: Array<{ color: string; score: number }>;
  orientation?: Array<{ orientation: 'Front' | 'Rear' | 'Unknown'; score: number }>;
}

/** Vehicles found without a readable plate (for `detection_mode: vehicle`). */
export interface VehicleOnly {
  vehicle: { type: VehicleType; score: number; box: Box };
  color?: Array<{ color: string; score: number }>;
  orientation?: Array<{ orientation: 'Front' | 'Rear' | 'Unknown'; score: number }>;
}

export interface PlateReadResult {
  plates: PlateReading[];
  vehiclesWithoutPlate: VehicleOnly[];
}

export interface PlateReader {
  read(image: Buffer, options: PlateReadOptions): Promise<PlateReadResult>;
}
