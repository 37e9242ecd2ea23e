import { describe, expect, it } from 'vitest';
import { countryOfBandSign, europeanRegion } from './european-plates.js';

describe('countryOfBandSign', () => {
  it.each([
    ['D', 'de'], ['cZ', 'cz'], ['SLO', 'si'], ['UK', 'gb'], [' F ', 'fr'], ['XX', undefined], ['', undefined],
  ])('%j names %s', (reading, code) => expect(countryOfBandSign(reading)).toBe(code));
});

describe('europeanRegion', () => {
  const anywhere = { regions: [], strict: false };
  it('takes the sign where it was read, whatever the number fits', () => {
    expect(europeanRegion('WSQ3021', anywhere, 'cz')).toBe('cz');
  });

  it('else the banded country whose format the number fits, more cars first', () => {
    expect(europeanRegion('AB123CD', anywhere)).toBe('it'); // fits Italy, France and Slovakia
    expect(europeanRegion('1234BCD', anywhere)).toBe('es');
    expect(europeanRegion('BIMMIAN', anywhere)).toBe('de'); // a chosen number fits none
  });

  it('puts a named European country first, and ignores named countries without a band', () => {
    expect(europeanRegion('AB123CD', { regions: ['fr'], strict: false })).toBe('fr');
    expect(europeanRegion('AB123CD', { regions: ['us-ca'], strict: false })).toBe('it');
  });

  it('keeps a strict client to its named banded countries, whatever the sign or the format says', () => {
    const strict = { regions: ['us', 'fr'], strict: true };
    expect(europeanRegion('AB123CD', strict, 'pl')).toBe('fr');
    expect(europeanRegion('1234BCD', strict)).toBe('fr'); // a Spanish shape, but only France was named
    expect(europeanRegion('AB123CD', { regions: ['fr', 'sk'], strict: true }, 'sk')).toBe('sk');
    // Not strict, the band's sign stands.
    expect(europeanRegion('AB123CD', { regions: ['fr'], strict: false }, 'pl')).toBe('pl');
  });
});
