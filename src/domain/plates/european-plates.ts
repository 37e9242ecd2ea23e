import { bestRegionFit, type RegionScope } from './region-fit.js';
import { countryOf } from './region-templates.js';

/**
 * Countries whose plates carry Europe's blue band (the EU's members and the UK), roughly by the
 * number of cars they register, most first: where a banded plate's number fits several of their
 * formats, or none (a chosen number), the country with more cars on the road is the likelier.
 */
export const BANDED_COUNTRIES = [
  'de', 'it', 'fr', 'gb', 'pl', 'es', 'nl', 'ro', 'cz', 'be', 'at', 'gr', 'pt', 'se', 'hu', 'bg',
  'dk', 'fi', 'sk', 'ie', 'hr', 'lt', 'si', 'ee', 'lv', 'cy', 'lu', 'mt',
] as const;

/** Whether `country` (a country code, `de`) is one whose plates carry the band. */
export function isBandedCountry(country: string): boolean {
  return (BANDED_COUNTRIES as readonly string[]).includes(country);
}

/** The distinguishing sign printed in the band, under the stars, per country. Inside a band a
 * one-letter sign is as good as a longer one. */
export const BAND_SIGN_COUNTRIES: Readonly<Record<string, string>> = {
  A: 'at', B: 'be', BG: 'bg', CY: 'cy', CZ: 'cz', D: 'de', DK: 'dk', E: 'es', EST: 'ee', F: 'fr',
  FIN: 'fi', GB: 'gb', GR: 'gr', H: 'hu', HR: 'hr', I: 'it', IRL: 'ie', L: 'lu', LT: 'lt',
  LV: 'lv', M: 'mt', NL: 'nl', P: 'pt', PL: 'pl', RO: 'ro', S: 'se', SK: 'sk', SLO: 'si', UK: 'gb',
};

/** The country a band's sign names, from the recogniser's reading of the band (stars read as
 * noise are dropped: only the letters count), or undefined. */
export function countryOfBandSign(reading: string): string | undefined {
  const letters = reading.toUpperCase().replace(/[^A-Z]/g, '');
  return BAND_SIGN_COUNTRIES[letters];
}

/**
 * The region of a plate seen with a European band: the country its sign names where it was read,
 * else the banded country whose format `plate` (upper case) fits, the client's named countries
 * first, then by BANDED_COUNTRIES (a number that fits none goes to the first of them). A strict
 * client's scope keeps to its named banded countries, sign or not.
 */
export function europeanRegion(plate: string, scope: RegionScope, sign?: string): string {
  const namedHere = scope.regions.map(countryOf).filter(isBandedCountry);
  const order = scope.strict && namedHere.length > 0 ? [...new Set(namedHere)] : [...new Set([...namedHere, ...BANDED_COUNTRIES])];
  if (sign && order.includes(sign)) return sign;
  return bestRegionFit(plate, { regions: order, strict: true })?.code ?? order[0]!;
}
