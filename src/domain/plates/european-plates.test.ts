import { describe, expect, it } from 'vitest';
import { countryOfBandSign, europeanRegion } from './european-plates.js';

describe('countryOfBandSign', () => {
  it.each([
    ['D', 'de'], ['cZ', 'cz'], ['SLO', 'si'], ['UK', 'gb'], [' F ', 'fr'], ['XX', undefined], ['', undefined],
  ])('%j names %s', (reading, code) => expect(countryOfBandSign(reading)).toBe(code));
});

describe('europeanRegion', () => {
  it('takes the sign where it was read, whatever the number fits', () => {
    expect(europeanRegion('WSQ3021', [], 'cz')).toBe('cz');
  });

  it('else the banded country whose format the number fits, more cars first', () => {
    expect(europeanRegion('AB123CD', [])).toBe('it'); // fits Italy, France and Slovakia
    expect(europeanRegion('1234BCD', [])).toBe('es');
    expect(europeanRegion('BIMMIAN', [])).toBe('de'); // a chosen number fits none
  });

  it('puts a named European country first, and ignores named countries without a band', () => {
    expect(europeanRegion('AB123CD', ['fr'])).toBe('fr');
    expect(europeanRegion('AB123CD', ['us-ca'])).toBe('it');
  });
});
