import { parseChoice } from '../../domain/choice.js';
import { FINER_PLATE_SIDE, type FinerLook } from './plate-modes.js';

/** How far regular mode looks for plates (PLATE_SEARCH). `every-plate` (default): every plate the
 * plate detector boxes on its 640 x 384 input, and without the detector the finer text pass beside
 * a sure plate; `first-sure` stops at the first sure plate, for cameras that see one car at a time
 * (a gate lane); `small-plates` also has the detector look at the photo on 960 x 576
 * (FINER_PLATE_SIDE), for plates 50-60 px wide in a 1080p frame (a second car farther off, a wide
 * parking view), at about 1.6 times the time of a one-car photo. */
export type PlateSearch = 'every-plate' | 'first-sure' | 'small-plates';
export const PLATE_SEARCHES: readonly PlateSearch[] = ['every-plate', 'first-sure', 'small-plates'];

/** PLATE_SEARCH's value: unset or empty is `every-plate`. */
export const parsePlateSearch = (value: string | undefined): PlateSearch => parseChoice('PLATE_SEARCH', PLATE_SEARCHES, 'every-plate', value);

/** Regular mode's second detector look under PLATE_SEARCH=small-plates: its boxes are read where
 * the first look boxed nothing, and beside a box the first look was unsure of where that box gave
 * no sure plate, the better reading standing. Adding them only where the first look boxed nothing
 * read the fit half's two-car photos at 90.9% (US) against 97.0% (2026-12-06): a small plate's
 * first box often cuts it or sits on a grille beside it. Reading them beside every unsure box,
 * sure plate or not, read as many pairs but misread plates the first box had read surely. */
export const SMALL_PLATES_LOOK: FinerLook = { side: FINER_PLATE_SIDE, blockedBy: 'sure-boxes' };
