import { parseChoice } from '../../domain/choice.js';

/** How far regular mode looks once a plate is read surely (PLATE_SEARCH): `every-plate` (default)
 * still runs the finer pass for the photo's other, smaller plates; `first-sure` stops there, for
 * cameras that see one car at a time (a gate lane), at about half the time and CPU of a one-car photo. */
export type PlateSearch = 'every-plate' | 'first-sure';
export const PLATE_SEARCHES: readonly PlateSearch[] = ['every-plate', 'first-sure'];

/** PLATE_SEARCH's value: unset or empty is `every-plate`. */
export const parsePlateSearch = (value: string | undefined): PlateSearch => parseChoice('PLATE_SEARCH', PLATE_SEARCHES, 'every-plate', value);
