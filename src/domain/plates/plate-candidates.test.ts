import { describe, expect, it } from 'vitest';
import { fitTemplate, normalisePlateText, scorePlateCandidates } from './plate-candidates.js';
import { REGION_TEMPLATES, parseRegions } from './region-templates.js';

// Real plate formats (example plates from public registration rules).
const FORMATS: Array<[region: string, plate: string]> = [
  ['us-ca', '8ABC123'], ['us-tx', 'ABC1234'], ['us-ny', 'ABC1234'], ['us-fl', 'ABCD12'],
  ['br', 'ABC1234'], ['br', 'ABC1D23'], ['gb', 'AB12CDE'], ['de', 'BAB1234'], ['fr', 'AB123CD'],
  ['it', 'AB123CD'], ['es', '1234BCD'], ['nl', '12ABC3'], ['pl', 'WA12345'], ['pt', 'AA00AA'],
  ['be', '1ABC123'], ['se', 'ABC123'], ['se', 'ABC12D'], ['ca-on', 'ABCD123'], ['mx', 'ABC123D'],
  ['au-vic', '1AB2CD'], ['au-nsw', 'AB12CD'], ['au-qld', '123ABC'],
];

describe('region templates', () => {
  it.each(FORMATS)('%s fits %s', (region, plate) => {
    expect(REGION_TEMPLATES[region]!.some((t) => fitTemplate(plate, t)?.fit === 1)).toBe(true);
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

describe('scorePlateCandidates', () => {
  it('normalises case, spaces, dashes and dots', () => {
    expect(normalisePlateText(' ab-12.cd e')).toBe('AB12CDE');
    const [top] = scorePlateCandidates([{ text: 'AB12 CDE', confidence: 0.9 }], { regions: ['gb'] });
    expect(top).toMatchObject({ plate: 'ab12cde', region: { code: 'gb' } });
  });

  it.each([
    // [reading, regions, expected plate, expected region]
    ['AB12CDE', ['gb'], 'ab12cde', 'gb'],
    ['A812CDE', ['gb'], 'ab12cde', 'gb'], // 8 in a letter slot -> B
    ['AB1ZCDE', ['gb'], 'ab12cde', 'gb'], // Z in a digit slot -> 2
    ['ABCI234', ['br'], 'abc1234', 'br'], // I in a digit slot -> 1
    ['0BC1D23', ['br'], 'obc1d23', 'br'], // 0 in a letter slot -> O (Mercosur)
    ['8ABCI23', ['us-ca'], '8abc123', 'us-ca'],
    ['I234BCD', ['es'], '1234bcd', 'es'],
    ['AB-123-CD', ['fr'], 'ab123cd', 'fr'],
    ['S123ABC', ['au-sa'], 's123abc', 'au-sa'],
    ['1AB2CD', ['au-vic'], '1ab2cd', 'au-vic'],
  ])('%s in %j reads %s (%s)', (text, regions, plate, code) => {
    const [top] = scorePlateCandidates([{ text, confidence: 0.9 }], { regions });
    expect(top?.plate).toBe(plate);
    expect(top?.region.code).toBe(code);
    expect(top!.score).toBeGreaterThan(0);
    expect(top!.score).toBeLessThanOrEqual(1);
  });

  it('reports the requested country, and a country rather than a guessed state without a hint', () => {
    expect(scorePlateCandidates([{ text: 'ABC1234', confidence: 0.9 }], { regions: ['us'] })[0]?.region.code).toBe('us');
    expect(scorePlateCandidates([{ text: 'ABC1234', confidence: 0.9 }], { regions: ['br'] })[0]?.region.code).toBe('br');
    expect(scorePlateCandidates([{ text: 'ABC1234', confidence: 0.9 }], { regions: ['us-tx'] })[0]?.region.code).toBe('us-tx');
    const unguided = scorePlateCandidates([{ text: '8ABC123', confidence: 0.9 }], {})[0]!;
    expect(unguided.region.code).not.toMatch(/-/);
  });

  it('prefers the requested region but does not filter without strict', () => {
    const out = scorePlateCandidates([{ text: 'XYZ', confidence: 0.8 }], { regions: ['gb'] });
    expect(out[0]?.plate).toBe('xyz');
    expect(scorePlateCandidates([{ text: 'XYZ', confidence: 0.8 }], { regions: ['gb'], strictRegion: true })).toEqual([]);
  });

  it('strict region keeps only readings that fit the region', () => {
    const out = scorePlateCandidates(
      [{ text: 'AB12CDE', confidence: 0.7 }, { text: '12345BC', confidence: 0.95 }],
      { regions: ['gb'], strictRegion: true },
    );
    expect(out.map((c) => c.plate)).toEqual(['ab12cde']);
  });

  it('ranks a reading that fits a template above one that needs swaps or fits none', () => {
    const out = scorePlateCandidates(
      [{ text: 'ABC1234', confidence: 0.8 }, { text: 'ABC12', confidence: 0.8 }],
      { regions: ['br'] },
    );
    expect(out[0]?.plate).toBe('abc1234');
    expect(out[0]!.score).toBeGreaterThan(out[1]!.score);
  });

  it('text formats boost the matching reading', () => {
    const readings = [{ text: 'ABC1234', confidence: 0.8 }, { text: 'ABC123', confidence: 0.85 }];
    expect(scorePlateCandidates(readings, {})[0]?.plate).toBe('abc123');
    expect(scorePlateCandidates(readings, { textFormats: ['^[a-z]{3}[0-9]{4}$'] })[0]?.plate).toBe('abc1234');
  });

  it('a weak character lowers the score', () => {
    const [strong] = scorePlateCandidates([{ text: 'AB12CDE', confidence: 0.9, charConfidences: [1, 1, 1, 1, 1, 1, 1] }], { regions: ['gb'] });
    const [weak] = scorePlateCandidates([{ text: 'AB12CDE', confidence: 0.9, charConfidences: [1, 1, 1, 0.1, 1, 1, 1] }], { regions: ['gb'] });
    expect(weak!.score).toBeLessThan(strong!.score);
  });

  it('survives unknown regions, bad regexes and junk', () => {
    expect(() =>
      scorePlateCandidates([{ text: '—', confidence: NaN }, { text: 'ABC123', confidence: 2 }], {
        regions: ['zz-qq', 'xx'], textFormats: ['(['], strictRegion: false,
      }),
    ).not.toThrow();
    expect(scorePlateCandidates([{ text: 'ABC123', confidence: 0.9 }], { regions: ['zz'], strictRegion: true })).toEqual([]);
  });

  it('sorts best first and deduplicates plates', () => {
    const out = scorePlateCandidates(
      [{ text: 'AB12CDE', confidence: 0.5 }, { text: 'ab12 cde', confidence: 0.9 }, { text: 'AB12CDF', confidence: 0.7 }],
      { regions: ['gb'] },
    );
    expect(out.map((c) => c.plate)).toEqual(['ab12cde', 'ab12cdf']);
  });
});
