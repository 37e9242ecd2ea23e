import { describe, expect, it } from 'vitest';
import { bestRegionFit } from './region-fit.js';
import { parseRegions, templatesFor } from './region-templates.js';

// Real plate formats (example plates from public registration rules): each fits one of its
// region's own templates, so the grammar scores it as that region at full weight.
const FORMATS: Array<[region: string, plate: string]> = [
  ['us-ca', '8ABC123'], ['us-tx', 'ABC1234'], ['us-ny', 'ABC1234'], ['us-fl', 'ABCD12'],
  ['br', 'ABC1234'], ['br', 'ABC1D23'], ['gb', 'AB12CDE'], ['de', 'BAB1234'], ['fr', 'AB123CD'],
  ['it', 'AB123CD'], ['es', '1234BCD'], ['nl', '12ABC3'], ['pl', 'WA12345'], ['pt', 'AA00AA'],
  ['be', '1ABC123'], ['se', 'ABC123'], ['se', 'ABC12D'], ['ca-on', 'ABCD123'], ['mx', 'ABC123D'],
  ['au-vic', '1AB2CD'], ['au-nsw', 'AB12CD'], ['au-qld', '123ABC'],
  ['sk', 'BA123AB'], ['hu', 'ABC123'], ['hu', 'AAAA123'], ['ro', 'CJ12ABC'], ['ro', 'B123ABC'],
  ['bg', 'CA1234AB'], ['bg', 'B1234AB'], ['hr', 'ZG1234AB'], ['hr', 'ZG123A'], ['si', 'LJA123'],
  ['si', 'LJAB123'], ['gr', 'ABC1234'], ['lt', 'ABC123'], ['lv', 'AB1234'], ['ee', '123ABC'],
  ['lu', 'AB1234'], ['mt', 'ABC123'], ['cy', 'ABC123'], ['at', 'W1234A'], ['dk', 'AB12345'],
  ['fi', 'ABC123'], ['ie', '231D12345'], ['cz', '1A23456'],
];

/** Every member state of the European Union (ISO 3166 codes). */
const EU_MEMBERS = ['at', 'be', 'bg', 'hr', 'cy', 'cz', 'dk', 'ee', 'fi', 'fr', 'de', 'gr', 'hu', 'ie', 'it', 'lv', 'lt', 'lu', 'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'si', 'es', 'se'];

describe('region templates', () => {
  it.each(FORMATS)('%s fits %s', (region, plate) => {
    expect(bestRegionFit(plate, { regions: [region], strict: true })).toEqual({ code: region, weight: 1 });
  });

  // A client that names its country strictly must not lose every plate to a missing table.
  it.each(EU_MEMBERS)('knows the formats of EU member %s', (country) => {
    expect(templatesFor(country).length).toBeGreaterThan(0);
  });

  it('counts a one-letter Bulgarian province only when the client names Bulgaria', () => {
    expect(bestRegionFit('B1234AB', { regions: ['bg'], strict: true })).toEqual({ code: 'bg', weight: 1 });
    // Unhinted, S1819AK (a Slovak SI819AK with I read as 1) stays a generic shape.
    expect(bestRegionFit('S1819AK', { regions: [], strict: false })?.weight).toBeLessThan(1);
  });

  it('does not take four digits alone for a plate: a house number is no Luxembourg plate', () => {
    expect(bestRegionFit('1056', { regions: [], strict: false })).toBeNull();
  });
});

describe('parseRegions', () => {
  it.each([
    [['us-ca', 'mx'], ['us-ca', 'mx']],
    ['us,ca', ['us', 'ca']],
    [['US, br', 'br'], ['us', 'br']],
    [undefined, []],
    ['', []],
  ])('%j -> %j', (input, out) => expect(parseRegions(input as string | string[] | undefined)).toEqual(out));
});
