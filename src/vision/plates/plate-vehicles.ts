import { parseChoice } from '../../domain/choice.js';

/** When the plate pipeline runs the COCO vehicle detector (PLATE_VEHICLES): `asked` (default)
 * when a call asks for something only it answers (mmc, strict detection); `always` on every call,
 * at its cost: about 2.5 times the CPU of a regular read (docs/benchmarks.md). Every other call
 * takes the vehicles of the plate detector's vehicle head, found in the same pass as the plates
 * for about 1.5 ms (detector-vehicles.ts): about three plates in four get their vehicle's type,
 * score and box, as the hosted service answers them (the vendor's redaction script keeps and
 * crops plates by that box: --ignore-no-bb, --crop-vehicle). */
export type PlateVehicles = 'asked' | 'always';
export const PLATE_VEHICLES: readonly PlateVehicles[] = ['asked', 'always'];

/** PLATE_VEHICLES's value: unset or empty is `asked`. */
export const parsePlateVehicles = (value: string | undefined): PlateVehicles => parseChoice('PLATE_VEHICLES', PLATE_VEHICLES, 'asked', value);
