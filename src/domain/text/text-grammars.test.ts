import { describe, expect, it } from 'vitest';
import { containerCheckDigit, isValidContainerCode, resolveContainerCode, SIZE_TYPE } from './iso6346.js';
import { boatRegistration, odometerReading, trailerId } from './text-types.js';
import { isValidVin, normaliseVin, resolveVin, vinCheckDigit } from './vin.js';

describe('VIN', () => {
  it.each([
    ['1M8GDM9AXKP042788', 'X'], // the check digit example of 49 CFR 565
    ['11111111111111111', '1'],
    ['1HGCM82633A004352', '3'],
  ])('%s has check digit %s', (vin, digit) => {
    expect(vinCheckDigit(vin)).toBe(digit);
    expect(isValidVin(vin)).toBe(true);
  });

  it('never contains I, O or Q and fixes them to the digits they look like', () => {
    expect(normaliseVin('1m8gdm9axkpo42788')).toBe('1M8GDM9AXKP042788');
    expect(normaliseVin('1HGCM8-2633A-OO4352')).toBe('1HGCM82633A004352');
  });

  it('uses the check digit to undo a look-alike misread, least confident first', () => {
    const conf = Array(17).fill(0.99);
    conf[6] = 0.4; // the Z that should be a 2
    expect(resolveVin('1HGCM8Z633A0O4352', conf)).toEqual({ vin: '1HGCM82633A004352', valid: true, corrections: 1, checked: true });
    expect(resolveVin('1HGCM82633A004352')).toEqual({ vin: '1HGCM82633A004352', valid: true, corrections: 0, checked: true });
  });

  it('keeps a European VIN (no check digit) and refuses wrong lengths', () => {
    expect(resolveVin('WVWZZZ1JZXW000001')).toEqual({ vin: 'WVWZZZ1JZXW000001', valid: true, corrections: 0, checked: false });
    expect(resolveVin('1HGCM82633A00435')).toBeUndefined();
  });
});

describe('ISO 6346', () => {
  it.each(['CSQU3054383', 'BEAU2656931', 'TRHU1700369', 'SEKU9203379', 'TEMU9545687', 'SEGU9941418'])('%s is valid', (code) => {
    expect(containerCheckDigit(code)).toBe(Number(code[10]));
    expect(isValidContainerCode(code)).toBe(true);
  });

  it('coerces letters and digits by position', () => {
    expect(resolveContainerCode('CSQU 3O54383')).toEqual({ code: 'CSQU3054383', corrected: false });
    expect(resolveContainerCode('C5QU3054383')).toEqual({ code: 'CSQU3054383', corrected: false });
  });

  it('completes a code whose boxed check digit was not read', () => {
    expect(resolveContainerCode('CSQU305438')).toEqual({ code: 'CSQU3054383', corrected: true });
  });

  it('rejects a wrong check digit read with confidence, recomputes an unsure one', () => {
    expect(resolveContainerCode('CSQU3054384', 0.99)).toBeUndefined();
    expect(resolveContainerCode('CSQU3054384', 0.3)).toEqual({ code: 'CSQU3054383', corrected: true });
    expect(resolveContainerCode('CSQX3054383')).toBeUndefined();
  });

  it.each([['22G1', true], ['45G1', true], ['L5G1', true], ['2G1', false], ['GGG1', false]])('size/type %s → %s', (c, ok) => {
    expect(SIZE_TYPE.test(c as string)).toBe(ok);
  });
});

describe('odometer, trailer, boat', () => {
  it.each([['420353', '420353'], ['0 4 2 1 5 8', '042158'], ['12:45', undefined], ['21°C', undefined], ['O12345', '012345'], ['7', undefined]])('odometer %j → %j', (t, r) => {
    expect(odometerReading(t)).toBe(r);
  });
  it.each([['53012', '53012'], ['TRL-4471', 'TRL4471'], ['ACME', undefined]])('trailer %j → %j', (t, r) => expect(trailerId(t)).toBe(r));
  it.each([['CF 1234 AB', 'CF 1234 AB'], ['FL-4567-XY', 'FL 4567 XY'], ['CF1234AB', 'CF 1234 AB'], ['HELLO', undefined]])('boat %j → %j', (t, r) => expect(boatRegistration(t)).toBe(r));
});
