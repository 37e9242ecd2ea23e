import { describe, expect, it } from 'vitest';
import { bestRegionFit } from './region-fit.js';
import { parseRegions } from './region-templates.js';

// Real plate formats (example plates from public registration rules): each fits one of its
// region's own templates, so the grammar scores it as that region at full weight.
const FORMATS: Array<[region: string, plate: string]> = [
  ['us-ca', '8ABC123'], ['us-tx', 'ABC1234'], ['us-ny', 'ABC1234'], ['us-fl', 'ABCD12'],
  ['br', 'ABC1234'], ['br', 'ABC1D23'], ['gb', 'AB12CDE'], ['de', 'BAB1234'], ['fr', 'AB123CD'],
  ['it', 'AB123CD'], ['es', '1234BCD'], ['nl', '12ABC3'], ['pl', 'WA12345'], ['pt', 'AA00AA'],
  ['be', '1ABC123'], ['se', 'ABC123'], ['se', 'ABC12D'], ['ca-on', 'ABCD123'], ['mx', 'ABC123D'],
  ['au-vic', '1AB2CD'], ['au-nsw', 'AB12CD'], ['au-qld', '123ABC'],
];

describe('region templates', () => {
  it.each(FORMATS)('%s fits %s', (region, plate) => {
    expect(bestRegionFit(plate, { regions: [region], strict: true })).toEqual({ code: region, weight: 1 });
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
