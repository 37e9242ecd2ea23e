import { describe, expect, it } from 'vitest';
import { foldPlate, plateKeys } from './plate-keys.js';

const shareKey = (a: string, b: string) => plateKeys(a).some((k) => plateKeys(b).includes(k));

describe('plate search keys', () => {
  it('folds look-alikes, case and separators', () => {
    expect(foldPlate('abc-1234')).toBe(foldPlate('A8C 1234'));
    expect(foldPlate('OIZSB')).toBe('01258');
    expect(foldPlate('D0Q')).toBe('000');
  });

  it.each([
    ['a misread character', 'ABC1234', 'ABC1284'],
    ['a dropped character', 'ABC1234', 'ABC234'],
    ['an added character', 'ABC123', 'ABC1233'],
    ['two neighbours swapped', 'ABC1234', 'ABC1324'],
    ['a look-alike anywhere', 'OLB4809', '0LB48O9'],
  ])('finds %s', (_, a, b) => {
    expect(shareKey(a, b)).toBe(true);
  });

  it.each([
    ['two characters misread', 'ABC1234', 'ABX1294'],
    ['another plate', 'ABC1234', 'XYZ9876'],
    ['two characters dropped', 'ABC1234', 'ABC12'],
  ])('does not find %s', (_, a, b) => {
    expect(shareKey(a, b)).toBe(false);
  });

  it('gives no single-character plate the empty key', () => {
    expect(plateKeys('7')).toEqual(['7']);
  });
});
