import { describe, expect, it } from 'vitest';
import { type CharOptions, containerCheckDigit, isValidContainerCode, readSizeType, resolveContainerCode, resolveContainerOptions, SIZE_TYPE } from './iso6346.js';
import { boatRegistration, isFleetNumber, stateNumberWithoutLetters, trailerId } from './text-types.js';
import { hasVinStructure, isValidVin, normaliseVin, resolveVin, vinCheckDigit } from './vin.js';

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
    expect(resolveVin('1HGCM8Z633A0O4352', conf)).toEqual({ vin: '1HGCM82633A004352', valid: true, corrections: 2, checked: true });
    expect(resolveVin('1HGCM82633A004352')).toEqual({ vin: '1HGCM82633A004352', valid: true, corrections: 0, checked: true });
  });

  it('never swaps two characters to make a check digit pass: some pair of a misread would', () => {
    const conf = Array(17).fill(0.99);
    conf[6] = 0.4; // a Z that should be a 2
    conf[11] = 0.4; // a D that should be a 0
    expect(resolveVin('1HGCM8Z633AD04352', conf)).toEqual({ vin: '1HGCM8Z633AD04352', valid: false, corrections: 0, checked: false });
  });

  it("tries the recogniser's own other choices before the look-alike table", () => {
    const conf = Array(17).fill(0.99);
    const choices = (text: string, at: number, other: string, p: number) =>
      [...text].map((char, i) => (i === at ? [{ char, prob: 1 - p }, { char: other, prob: p }] : [{ char, prob: 0.99 }]));
    // A T read as 1: L (the table's first look-alike of 1) passes the same check digit.
    conf[4] = 0.53;
    expect(resolveVin('1FTL11XL157528443', conf)?.vin).toBe('1FTLL1XL157528443');
    expect(resolveVin('1FTL11XL157528443', conf, choices('1FTL11XL157528443', 4, 'T', 0.28))?.vin).toBe('1FTLT1XL157528443');
    // In the maker code a known maker decides between them: Ford's 1FT, not 1FL.
    conf[4] = 0.99;
    conf[2] = 0.53;
    expect(resolveVin('1F1L81XLX57528443', conf)?.vin).toBe('1FTL81XLX57528443');
    // An 8 read as 3, which the table has no look-alike for.
    conf[2] = 0.99;
    conf[15] = 0.75;
    expect(resolveVin('2T14ZYE2XLY544032', conf)?.valid).toBe(false);
    expect(resolveVin('2T14ZYE2XLY544032', conf, choices('2T14ZYE2XLY544032', 15, '8', 0.24))).toEqual({ vin: '2T14ZYE2XLY544082', valid: true, corrections: 1, checked: true });
    // A choice the recogniser barely saw is noise.
    expect(resolveVin('2T14ZYE2XLY544032', conf, choices('2T14ZYE2XLY544032', 15, '8', 0.01))?.valid).toBe(false);
  });

  it('with the recogniser\'s choices, swaps an unsure character only to one of them, never to a look-alike it did not see', () => {
    // G read as 1 (0.95, a trace of the G at 0.03) and an unsure A (0.6) it saw nothing else in:
    // the A made 4 passes the check digit by chance (1M81DM94XKP042788); the G is what it saw.
    const read = '1M81DM9AXKP042788';
    const conf = [...read].map((_, i) => (i === 7 ? 0.6 : 0.95));
    const choices = [...read].map((char, i) => (i === 3 ? [{ char, prob: 0.95 }, { char: 'G', prob: 0.03 }] : [{ char, prob: conf[i]! }]));
    expect(isValidVin('1M81DM94XKP042788')).toBe(true);
    expect(resolveVin(read, conf, choices)).toEqual({ vin: '1M8GDM9AXKP042788', valid: true, corrections: 1, checked: true });
  });

  it("swaps a sure character to what the recogniser also saw there when nothing else passes, the likeliest first", () => {
    // A stamped M read as W at 0.94, the M beside it at 0.05: the check digit wants the M.
    const read = '5NPBNBKZ9GW632811';
    const choices = [...read].map((char, i) => (i === 10 ? [{ char, prob: 0.94 }, { char: 'M', prob: 0.05 }] : [{ char, prob: 0.99 }]));
    const sure = Array(17).fill(0.94);
    expect(resolveVin(read, sure, choices)).toEqual({ vin: '5NPBNBKZ9GM632811', valid: true, corrections: 1, checked: true });
    // Without that trace of an M, nothing passes.
    expect(resolveVin(read, sure)?.valid).toBe(false);
    // Two other choices that both pass: the one seen likelier wins (an 8 read as 3 at 0.87, the
    // 8 at 0.11, over a C seen at 0.03 beside a D).
    const threes = '2HGTZGDS2LY460304';
    const both = [...threes].map((char, i) => (i === 14 ? [{ char, prob: 0.87 }, { char: '8', prob: 0.11 }] : i === 6 ? [{ char, prob: 0.96 }, { char: 'C', prob: 0.03 }] : [{ char, prob: 0.99 }]));
    expect(isValidVin('2HGTZGCS2LY460304')).toBe(true);
    expect(resolveVin(threes, Array(17).fill(0.99), both)?.vin).toBe('2HGTZGDS2LY460804');
  });

  it('makes an unknown maker code a known one where the recogniser saw it', () => {
    const read = 'ZEAMPGDA9L8466632';
    const choices = (alt: string, p: number) => [...read].map((char, i) => (i === 1 ? [{ char, prob: 1 - p }, { char: alt, prob: p }] : [{ char, prob: 0.99 }]));
    // Fiat's ZFA, with an F seen beside the E.
    expect(resolveVin(read, Array(17).fill(0.99), choices('F', 0.08))).toEqual({ vin: 'ZFAMPGDA9L8466632', valid: true, corrections: 1, checked: false });
    // An alternative that makes no known maker, or one barely seen, changes nothing.
    expect(resolveVin(read, Array(17).fill(0.99), choices('R', 0.08))?.vin).toBe(read);
    expect(resolveVin(read, Array(17).fill(0.99), choices('F', 0.01))?.vin).toBe(read);
    // The first character too, where the VIN then holds: a 1 read as T (Honda's 1HG, which
    // makes it North American: its check digit passes), a W read as N (Mercedes' WDB).
    const first = (text: string, alt: string, p: number) => [...text].map((char, i) => (i === 0 ? [{ char, prob: 1 - p }, { char: alt, prob: p }] : [{ char, prob: 0.99 }]));
    expect(resolveVin('THG71MSE0H5842543', Array(17).fill(0.99), first('THG71MSE0H5842543', '1', 0.17))).toEqual({ vin: '1HG71MSE0H5842543', valid: true, corrections: 1, checked: true });
    expect(resolveVin('NDB1L3A2ME4749962', Array(17).fill(0.99), first('NDB1L3A2ME4749962', 'W', 0.22))?.vin).toBe('WDB1L3A2ME4749962');
    // Not where the check digit then fails: a known maker alone does not make a North American VIN.
    expect(resolveVin('THG71MSE0H5842544', Array(17).fill(0.99), first('THG71MSE0H5842544', '1', 0.17))?.vin).toBe('THG71MSE0H5842544');
    // A known maker is kept whatever else the recogniser saw.
    expect(resolveVin('ZFAMPGDA9L8466632', Array(17).fill(0.99), [...'ZFAMPGDA9L8466632'].map((char, i) => (i === 1 ? [{ char, prob: 0.6 }, { char: 'E', prob: 0.4 }] : [{ char, prob: 0.99 }])))?.vin).toBe('ZFAMPGDA9L8466632');
  });

  it('takes a region digit misread as a look-alike letter back where a known maker and the check digit confirm it', () => {
    // Volkswagen de Mexico's 3VW and Ford's 3FA, their 3 read as B: a sure misread, no trace in the choices.
    expect(resolveVin('BVW2KKXD3T3583725', Array(17).fill(0.99))).toEqual({ vin: '3VW2KKXD3T3583725', valid: true, corrections: 1, checked: true });
    expect(resolveVin('BFARPWYH48N842753', Array(17).fill(0.99))?.vin).toBe('3FARPWYH48N842753');
    // Not where the check digit then fails: BVW stays as read (no check digit outside North America).
    expect(resolveVin('BVW2KKXD3T3583726', Array(17).fill(0.99))?.vin).toBe('BVW2KKXD3T3583726');
    // Nor into a known maker outside North America, which nothing would check (SAL read as 5AL stays).
    expect(resolveVin('5AL2KKXD3T3583725', Array(17).fill(0.99))?.vin).not.toMatch(/^SAL/);
  });

  it('keeps a European VIN (no check digit) and refuses wrong lengths', () => {
    expect(resolveVin('WVWZZZ1JZXW000001')).toEqual({ vin: 'WVWZZZ1JZXW000001', valid: true, corrections: 0, checked: false });
    expect(resolveVin('1HGCM82633A00435')).toBeUndefined();
  });
});

describe('VIN structure (ISO 3779, 49 CFR 565)', () => {
  it.each([
    { vin: 'WVWZZZ1JZXW000001', ok: true, why: 'European, serial digits at the end' },
    { vin: 'JH4KA7561PC008269', ok: true, why: 'Japanese' },
    { vin: 'VEH1CLE1DENT1F1CA', ok: false, why: 'a label read as 17 characters: no serial digits' },
    { vin: 'GVWR2948KGPA1NT04', ok: false, why: 'weights line: letters among the last three' },
    { vin: '1HGCM82633A004352', ok: true, why: 'North American' },
    { vin: '1HGCM8263UA004352', ok: false, why: 'North American model year U' },
  ])('$vin: $why', ({ vin, ok }) => {
    expect(hasVinStructure(vin)).toBe(ok);
  });

  it.each([
    { read: 'WVWZZZ1JZXW0000S1', vin: 'WVWZZZ1JZXW000051', corrections: 1, why: 'a letter among the final serial digits' },
    { read: 'WVWZZZ1JZXWOOOOO1', vin: 'WVWZZZ1JZXW000001', corrections: 5, why: 'O for 0, counted' },
    { read: 'JH4KA7561PC008269', vin: 'JH4KA7561PC008269', corrections: 0, why: 'as read' },
  ])('resolves $read: $why', ({ read, vin, corrections }) => {
    expect(resolveVin(read)).toMatchObject({ vin, valid: true, corrections, checked: false });
  });

  it.each(['VEHICLEIDENTIFICA', 'THISVEHICLECONFOR', 'MFDBYGENERALMOTOR'])('refuses %s as a valid VIN', (text) => {
    expect(resolveVin(text)?.valid ?? false).toBe(false);
  });

  it('counts the changes that make label text fit, so a clean reading outranks it', () => {
    expect(resolveVin('GVWR2948KGPAINT04')!.corrections).toBeGreaterThanOrEqual(2);
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

  it.each([
    ['22G1', '22G1'],
    ['45R1', '45R1'],
    ['L5G1', 'L5G1'],
    ['22Gi', '22G1'], // the last 1 read as a lower-case i
    ['22G1盟', '22G1'], // the height sticker under a column, read as a CJK glyph
    ['2 2 G 1', '22G1'],
    ['221圈驷', undefined], // the type letter lost: nothing to guess from
    ['2180', undefined], // a weight: no type letter
    ['LOGO', undefined], // two look-alikes: a word
    ['TARE', undefined],
    ['22G1X', undefined],
  ])('reads the size and type code in %s as %s', (text, code) => {
    expect(readSizeType(text)).toBe(code);
  });
});

describe('trailer, boat', () => {
  it.each([
    ['53012', '53012'], ['TRL-4471', 'TRL4471'], ['ACME', undefined],
    ['TN2OO', 'TN200'], ['53O12', '53012'], ['HL4O9I2', 'HL40912'], ['1234AB', '1234AB'], ['OI', undefined], ['IO5', 'IO5'],
    ['KXO108', 'KX0108'], ['PGO54', 'PG054'], ['NIO0', 'N100'], ['MAXI 55', 'MAXI55'], ['TOO 12', 'TOO12'],
  ])('trailer %j → %j', (t, r) => expect(trailerId(t)).toBe(r));
  it.each([['53012', true], ['TN200', true], ['R1453B', true], ['SED6625', true], ['CARRIER53', false], ['53FTREEFER', false], ['A1', false]])('fleet number shape %j → %j', (t, r) => expect(isFleetNumber(t)).toBe(r));
  it.each([['CF 1234 AB', 'CF 1234 AB'], ['FL-4567-XY', 'FL 4567 XY'], ['CF1234AB', 'CF 1234 AB'], ['HELLO', undefined]])('boat %j → %j', (t, r) => expect(boatRegistration(t)).toBe(r));

  it.each([
    ['W16V', 'WI 6 V', 'the I of WI read as 1'],
    ['0H 5860 VM', 'OH 5860 VM', 'the O of OH read as 0'],
    ['Q1 23 AB', 'Q123AB', 'Q1 would be QI, no state: kept as a mark'],
    ['24N43578', '24N43578', 'a Canadian number: no letter where a state code would be'],
  ])('boat %j → %j (%s)', (t, r) => expect(boatRegistration(t)).toBe(r));

  it.each([
    ['OR937', true], ['AZ 1063', true], ['OR 937 U', false], ['QX937', false], ['OR12345', false],
  ])('a state number without its letters (QX: no issuing authority; five digits too many): %j → %j', (value, lacks) => expect(stateNumberWithoutLetters(value) !== undefined).toBe(lacks));
});

describe('ISO 6346 from per-character options', () => {
  /** A reading: each character sure (0.99) unless listed in `unsure` with its runners-up. */
  const reading = (text: string, unsure: Record<number, Array<[string, number]>> = {}): CharOptions[] =>
    text.split('').map((c, i) => (unsure[i] ? unsure[i]!.map(([char, prob]) => ({ char, prob })) : [{ char: c, prob: 0.99 }, { char: '#', prob: 0.005 }]));

  it.each([
    { name: 'a valid reading stays as read', text: 'CSQU3054383', unsure: {}, code: 'CSQU3054383', changes: 0 },
    { name: 'a letter where a digit belongs is coerced, as a change', text: 'CSQU3O54383', unsure: {}, code: 'CSQU3054383', changes: 1 },
    { name: 'the runner-up that makes the check digit hold wins', text: 'LXDU1604074', unsure: { 0: [['L', 0.6], ['C', 0.3], ['I', 0.05]] }, code: 'CXDU1604074', changes: 1 },
    { name: 'a look-alike at an unsure position, without a runner-up', text: 'TGHU0737820', unsure: { 8: [['8', 0.55]] }, code: 'TGHU0737320', changes: 1 },
    { name: 'a check digit read as a letter (its box) is recomputed', text: 'BEAU265693D', unsure: { 10: [['D', 0.95]] }, code: 'BEAU2656931', changes: 1 },
    { name: 'an unsure check digit is recomputed', text: 'CSQU3054384', unsure: { 10: [['4', 0.6], ['1', 0.2]] }, code: 'CSQU3054383', changes: 1 },
    { name: 'a category letter that is not U, J or Z', text: 'TEM05037029', unsure: {}, code: 'TEMU5037029', changes: 1 },
    { name: 'two unsure positions', text: 'HALU2O8997G', unsure: { 5: [['O', 0.5], ['0', 0.4]], 10: [['G', 0.5], ['6', 0.45]] }, code: 'HALU2089976', changes: 2 },
  ])('$name', ({ text, unsure, code, changes }) => {
    expect(resolveContainerOptions(reading(text, unsure as Record<number, Array<[string, number]>>))).toMatchObject({ code, changes });
  });

  it.each([
    { name: 'a sure wrong check digit is refused', text: 'CSQU3054384', unsure: {} },
    { name: 'a runner-up too unlikely to count is refused', text: 'CSQU3054384', unsure: { 10: [['4', 0.99], ['3', 0.001]] } },
    { name: 'not 11 characters', text: 'CSQU305438', unsure: {} },
    { name: 'a word, not a code', text: 'MAXGROSSKGS', unsure: {} },
    { name: 'more changes than allowed', text: 'IGTZOOI8S2I', unsure: {} },
  ])('$name', ({ text, unsure }) => {
    expect(resolveContainerOptions(reading(text, unsure as Record<number, Array<[string, number]>>))).toBeUndefined();
  });
});
