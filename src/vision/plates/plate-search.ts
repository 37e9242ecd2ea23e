/** How far regular mode looks once a plate is read surely (PLATE_SEARCH): `every-plate` (default)
 * still runs the finer pass for the photo's other, smaller plates; `first-sure` stops there, for
 * cameras that see one car at a time (a gate lane), at about 0.6 times the CPU. */
export type PlateSearch = 'every-plate' | 'first-sure';
export const PLATE_SEARCHES: readonly PlateSearch[] = ['every-plate', 'first-sure'];

/** PLATE_SEARCH's value: unset or empty is `every-plate`; anything else unknown is an error. */
export function parsePlateSearch(value: string | undefined): PlateSearch {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return 'every-plate';
  if ((PLATE_SEARCHES as readonly string[]).includes(v)) return v as PlateSearch;
  throw new Error(`PLATE_SEARCH must be one of ${PLATE_SEARCHES.join(', ')}, got "${value}"`);
}
