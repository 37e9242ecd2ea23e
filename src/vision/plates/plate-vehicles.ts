import { parseChoice } from '../../domain/choice.js';

/** When the plate pipeline looks for vehicles (PLATE_VEHICLES): `asked` (default) when a call
 * asks for something only a vehicle answers (mmc, strict detection); `always` on every call, so
 * every result has its vehicle's type, score and box as the hosted service answers (the vendor's
 * redaction script keeps and crops plates by that box: --ignore-no-bb, --crop-vehicle), at the
 * COCO vehicle detector's cost: about 2.5 times the CPU of a regular read (docs/benchmarks.md). */
export type PlateVehicles = 'asked' | 'always';
export const PLATE_VEHICLES: readonly PlateVehicles[] = ['asked', 'always'];

/** PLATE_VEHICLES's value: unset or empty is `asked`. */
export const parsePlateVehicles = (value: string | undefined): PlateVehicles => parseChoice('PLATE_VEHICLES', PLATE_VEHICLES, 'asked', value);
