import { describe, expect, it } from 'vitest';
import { bestRegionFit, FOREIGN_FACTOR, GENERIC_WEIGHT, hasShape, LETTERS_ONLY_WEIGHT } from './region-fit.js';

describe('hasShape', () => {
  it.each([
    ['AB1C2D', 'AA9A9A', true],
    ['AB1C2D', 'AA9A99', false],
    ['ABC123', 'XXXXXX', true],
    ['ABC123', 'XXXXX', false],
    ['0BC123', 'AAA999', false],
  ])('%s has the shape %s: %s', (text, template, out) => expect(hasShape(text, template)).toBe(out));
});

describe('bestRegionFit', () => {
  it.each([
    // [text, regions, strict, code, weight]
    ['AB1C2D', [], false, 'us', 1], // Missouri AB1 C2D: a state format, reported as the country
    ['8ABC123', ['us-ca'], false, 'us-ca', 1],
    ['ABC1234', ['us'], false, 'us', 1], // a state's format counts for its country
    ['ABC1234', ['br'], false, 'br', 1],
    ['ABC1D23', ['br'], true, 'br', 1], // Mercosur
    ['AB12CDE', ['br'], false, 'gb', FOREIGN_FACTOR], // fits only a region the client did not name
    ['TX1A2B3', ['us-tx'], false, 'us-tx', GENERIC_WEIGHT], // no state's format: the country's generic shape
    ['GEORGIA', [], false, 'us', LETTERS_ONLY_WEIGHT], // a word fits only the generic shape
    ['1234BCD', ['es'], true, 'es', 1],
    ['ABCD123', ['ca-on'], false, 'ca-on', 1],
    ['ABC123D', ['mx'], false, 'mx', 1],
    ['1AB2CD', ['au-vic'], false, 'au-vic', 1],
  ] as const)('%s under %j (strict %s) fits %s at %s', (text, regions, strict, code, weight) => {
    expect(bestRegionFit(text, { regions, strict })).toEqual({ code, weight });
  });

  it('gives a number that fits several regions equally to one whose plates draw characters as wide as seen', () => {
    // ABC1234: Texas and New York, and Brazil's grey plates; AB12CDE only the UK.
    expect(bestRegionFit('ABC1234', { regions: [], strict: false })).toEqual({ code: 'us', weight: 1 });
    expect(bestRegionFit('ABC1234', { regions: [], strict: false }, false)).toEqual({ code: 'us', weight: 1 });
    expect(bestRegionFit('ABC1234', { regions: [], strict: false }, true)).toEqual({ code: 'br', weight: 1 });
    expect(bestRegionFit('AB12CDE', { regions: [], strict: false }, false)).toEqual({ code: 'gb', weight: 1 });
    // The width never outweighs the format: a generic US shape stays below a specific one.
    expect(bestRegionFit('ABC12345', { regions: [], strict: false }, true)?.code).toBe('us');
    // Nor a named region.
    expect(bestRegionFit('ABC1234', { regions: ['us'], strict: false }, true)).toEqual({ code: 'us', weight: 1 });
  });

  it('counts another state\'s format under a named state nearly as the state\'s own, unless strict', () => {
    // A California camera sees a Texan ABC1234: more than the generic US shape, less than 8ABC123.
    expect(bestRegionFit('ABC1234', { regions: ['us-ca'], strict: false })).toEqual({ code: 'us', weight: 0.8 });
    expect(bestRegionFit('8ABC123', { regions: ['us-ca'], strict: false })).toEqual({ code: 'us-ca', weight: 1 });
    expect(bestRegionFit('ABC1234', { regions: ['us-ca'], strict: true })).toEqual({ code: 'us-ca', weight: GENERIC_WEIGHT });
    // Another country's format stays foreign: the generic US shape outweighs it.
    expect(bestRegionFit('AB12CDE', { regions: ['us-ca'], strict: false })).toEqual({ code: 'us-ca', weight: GENERIC_WEIGHT });
  });

  it('fits nothing outside the named regions when strict', () => {
    expect(bestRegionFit('AB12CDE', { regions: ['br'], strict: true })).toBeNull();
    expect(bestRegionFit('ABC1234', { regions: ['zz'], strict: true })).toBeNull();
  });

  it('prefers a named region over an equally specific foreign one', () => {
    // ABC1234 is also a US, German and Northern Irish shape.
    expect(bestRegionFit('ABC1234', { regions: ['gb'], strict: false })).toEqual({ code: 'gb', weight: 1 });
  });
});
