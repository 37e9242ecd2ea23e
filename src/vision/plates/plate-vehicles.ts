import { parseChoice } from '../../domain/choice.js';

/** When the plate pipeline runs the COCO vehicle detector (PLATE_VEHICLES). Every plate first
 * takes the vehicles the plate detector's vehicle head found in the same pass, for about 1.5 ms
 * (detector-vehicles.ts): they hold about three plates in four. The hosted service answers each
 * plate's vehicle (type, score, box) on every call, and the vendor's redaction script keeps and
 * crops plates by that box (--ignore-no-bb, --crop-vehicle), so by default the COCO detector
 * (about ten times the head's cost) looks for the rest:
 * - `asked` (default): where a call asks for something only it answers (mmc, strict detection),
 *   and, outside fast mode, where a plate read in a scene is on no vehicle of the head's;
 * - `head`: only where a call asks for it; other plates keep the head's vehicle or none;
 * - `always`: on every call, at its cost: about 2.5 times the CPU of a regular read
 *   (docs/benchmarks.md). */
export type PlateVehicles = 'asked' | 'head' | 'always';
export const PLATE_VEHICLES: readonly PlateVehicles[] = ['asked', 'head', 'always'];

/** PLATE_VEHICLES's value: unset or empty is `asked`. */
export const parsePlateVehicles = (value: string | undefined): PlateVehicles => parseChoice('PLATE_VEHICLES', PLATE_VEHICLES, 'asked', value);
