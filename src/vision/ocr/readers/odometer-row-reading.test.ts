import { describe, expect, it } from 'vitest';
import { cleanRowDigits, type DigitRead, passedOverWheel, rowReading, surerDigits, withFirstPassDigit, withoutForcedLast, withoutGlyphPastDrum, withoutScaleNeighbours, withoutWindowEdge, withTenths } from './odometer-row-reading.js';

describe('row digits', () => {
  it.each([
    ['01755270', '017552'], // the dial's 70 inside the drum's box
    ['0198900', '0198900'], // seven digits: kept, nothing says what is extra
    ['118668', '118668'],
    ['12', undefined],
  ])('cleanRowDigits(%j) → %j', (d, r) => expect(cleanRowDigits(d)).toBe(r));

  it.each([
    ['00769', '007690', '007690'], // the tenths wheel the box left out
    ['02757', '027572', '027572'],
    ['018704', '0187047', '0187047'],
    ['24561', '2456', '24561'], // a shorter wide read does not drop digits
    ['013407', '0134', '013407'],
    ['00659', '006951', '00659'], // a different digit is a neighbour, not the tenths
    ['00659', '0065917', '00659'], // two more digits: not one tenths wheel
    [undefined, '48249', '48249'],
  ])('withTenths(%j, %j) → %j', (boxed, widened, r) => expect(withTenths(boxed, widened)).toBe(r));
});

/** A digits-only read: glyph centres `pitch` apart from `start` (in glyph heights), all sure unless told. */
const read = (text: string, confidences: number[] = [...text].map(() => 0.99), centres: number[] = [...text].map((_, i) => 0.4 + i * 0.6)): DigitRead => ({
  text,
  confidences,
  spans: centres.map((c) => ({ x0: c - 0.1, x1: c + 0.1 })),
});

describe('withoutWindowEdge', () => {
  it.each<[string, DigitRead, string]>([
    ['an unsure 1 squeezed against the first drum digit is the window edge', read('124721', [0.6, 0.99, 0.99, 0.95, 0.99, 0.92], [0.05, 0.3, 0.9, 1.5, 2.1, 2.7]), '24721'],
    ['a sure leading 1 is a digit, however close', read('120593', [0.99, 0.99, 0.99, 0.99, 0.99, 0.99], [0.05, 0.3, 0.9, 1.5, 2.1, 2.7]), '120593'],
    ['an unsure 1 one drum pitch from the next digit is a digit', read('118668', [0.7, 0.99, 0.99, 0.99, 0.99, 0.99]), '118668'],
    ['an unsure 1 inside the box, away from its edge, is an LCD digit', read('192196', [0.75, 0.69, 0.84, 0.93, 0.88, 0.9], [1.1, 1.26, 1.5, 1.76, 1.93, 2.26]), '192196'],
    ['a leading digit other than 1 stays', read('024721', [0.3, 0.99, 0.99, 0.99, 0.99, 0.99], [0.05, 0.3, 0.9, 1.5, 2.1, 2.7]), '024721'],
    ['without positions nothing is dropped', { text: '124721', confidences: [0.6, 0.99, 0.99, 0.95, 0.99, 0.92] }, '124721'],
  ])('%s', (_, r, want) => expect(withoutWindowEdge(r).text).toBe(want));
});

describe('withoutForcedLast', () => {
  it.each<[string, DigitRead, string]>([
    ['a unit letter forced to a digit at almost no confidence goes', read('6981', [0.99, 0.99, 0.99, 0.004]), '698'],
    ['an unsure tenths wheel stays', read('006590', [0.99, 0.99, 0.99, 0.99, 0.99, 0.14]), '006590'],
    ['a forced digit inside the row stays (nothing says where the reading ends)', read('69081', [0.99, 0.99, 0.01, 0.99, 0.99]), '69081'],
    ['without confidences nothing goes', { text: '6981' }, '6981'],
  ])('%s', (_, r, want) => expect(withoutForcedLast(r).text).toBe(want));
});

describe('withoutGlyphPastDrum', () => {
  // 0 5 4 1 3 and the tenths wheel, one pitch apart; the first pass read those six.
  const first = read('054137', [0.43, 0.68, 0.75, 0.79, 0.32, 0.31]);
  const unsure = [0.87, 0.82, 0.87, 0.68, 0.29, 0.28, 0.18];
  const drum = [0.4, 1.0, 1.6, 2.2, 2.8, 3.4];
  it.each<[string, DigitRead, DigitRead, string]>([
    ['ticks past the window, an unsure digit with room for a wheel before it, go', first, read('0541079', unsure, [...drum, 4.5]), '054107'],
    ['the next wheel, one pitch on, stays', first, read('0541079', unsure, [...drum, 4.0]), '0541079'],
    ['a digit read surely stays', first, read('0541079', [...unsure.slice(0, -1), 0.9], [...drum, 4.5]), '0541079'],
    ['a glyph the first pass saw near it is a wheel the read passed over before it', read('0541377', undefined, [...drum, 4.0]), read('0541079', unsure, [...drum, 4.5]), '0541079'],
    ['without the first pass places nothing goes', { text: '054137' }, read('0541079', unsure, [...drum, 4.5]), '0541079'],
  ])('%s', (_, f, r, want) => expect(withoutGlyphPastDrum(f, r, 4.8).text).toBe(want));

  it('a digit past the first pass box stays: the first pass did not look there (a tenths wheel the box left out)', () => {
    expect(withoutGlyphPastDrum(first, read('0541079', unsure, [...drum, 4.5]), 4.2).text).toBe('0541079');
  });
});

describe('withoutScaleNeighbours', () => {
  it.each<[string, DigitRead, string]>([
    ['a dial 20 standing apart on the left goes', read('20012565', undefined, [0.25, 0.4, 1.55, 1.9, 2.15, 2.5, 2.75, 3.05]), '012565'],
    ['a dial 70 standing apart on the right goes', read('00343070', undefined, [0.5, 1.0, 1.6, 2.1, 2.7, 3.2, 4.4, 4.7]), '003430'],
    ['an LCD unevenly spaced by its narrow 1s keeps its digits', read('191510', undefined, [0.25, 0.58, 1.24, 1.57, 2.22, 2.55]), '191510'],
    ['a drum split at a wide gap keeps digits that are not a round number', read('009239', undefined, [0.3, 0.9, 1.5, 3.0, 3.6, 4.2]), '009239'],
    ['a round number in step with the drum is a reading', read('200637', undefined, [0.4, 1.0, 1.6, 2.2, 2.8, 3.4]), '200637'],
  ])('%s', (_, r, want) => expect(withoutScaleNeighbours(r).text).toBe(want));
});

describe('surerDigits', () => {
  it.each<[string, DigitRead, DigitRead, string]>([
    ['the first pass, clearly surer of the tenths, settles it', read('006591', [0.99, 0.99, 0.99, 0.99, 0.99, 0.62]), read('006590', [0.99, 0.99, 0.99, 0.99, 0.99, 0.32]), '006591'],
    ['a first pass about as unsure keeps the digits-only read', read('006591', [0.99, 0.99, 0.99, 0.99, 0.99, 0.4]), read('006590', [0.99, 0.99, 0.99, 0.99, 0.99, 0.32]), '006590'],
    ['reads of different lengths are not aligned', read('00659', [0.99, 0.99, 0.99, 0.99, 0.99]), read('006590', [0.99, 0.99, 0.99, 0.99, 0.99, 0.32]), '006590'],
    ['without the first pass confidences the read stands', { text: '006591' }, read('006590', [0.99, 0.99, 0.99, 0.99, 0.99, 0.32]), '006590'],
  ])('%s', (_, first, r, want) => expect(surerDigits(first, r).text).toBe(want));

  it('a digit the first pass settles keeps its confidence, so a second look at it knows it is sure', () => {
    const out = surerDigits(read('006591', [0.99, 0.99, 0.99, 0.99, 0.99, 0.62]), read('006590', [0.99, 0.99, 0.99, 0.99, 0.99, 0.32]));
    expect(out.confidences).toEqual([0.99, 0.99, 0.99, 0.99, 0.99, 0.62]);
  });
});

describe('withFirstPassDigit', () => {
  const first = (text: string, confidences?: number[]): DigitRead => ({ text, confidences });
  // 0 2 _ 4 3 0: one wheel skipped, its neighbours two pitches apart.
  const gapped = (text = '02430') => read(text, undefined, [0.4, 1.0, 2.2, 2.8, 3.4]);
  it.each<[string, DigitRead, DigitRead, string]>([
    ['a glyph the digits-only read passed over goes back into the gap it left', first('027430'), gapped(), '027430'],
    ['with the first pass confidence when it has one', first('027430', [0.9, 0.9, 0.35, 0.9, 0.9, 0.9]), gapped(), '027430'],
    ['no gap in the row: the extra digit is not a skipped wheel', first('027430'), read('02430'), '02430'],
    ['a gap much wider than two pitches parts a label from the number', first('01183240'), read('0183240', undefined, [0.4, 2.8, 3.4, 4.0, 4.6, 5.2, 5.8]), '0183240'],
    ['an unsure digit past the row\'s end is left to the widened crop', first('024305', [0.9, 0.9, 0.9, 0.9, 0.9, 0.3]), gapped(), '02430'],
    ['two digits more are not one glyph passed over', first('0277430'), gapped(), '02430'],
    ['a different digit is not a glyph passed over', first('027431'), gapped(), '02430'],
    ['a shorter first pass adds nothing', first('0243'), gapped(), '02430'],
  ])('%s', (_, f, r, want) => {
    const out = withFirstPassDigit(f, r);
    expect(out.text).toBe(want);
    if (want === r.text) return;
    // The digit sits midway between its neighbours, as sure as the first pass was.
    expect((out.spans![2]!.x0 + out.spans![2]!.x1) / 2).toBeCloseTo(1.6);
    expect(out.confidences![2]).toBe(f.confidences?.[2] ?? 0);
  });

  // 1 7 5 9 starting two pitches into the crop: room for a wheel before it.
  const late = (text = '1759') => read(text, undefined, [1.2, 1.8, 2.4, 3.0]);
  it.each<[string, DigitRead, DigitRead, string]>([
    ['a leading digit passed over goes back one pitch before the first', first('01759'), late(), '01759'],
    ['not without room for a wheel before the first digit', first('01759'), read('1759'), '1759'],
    ['nor a leading 1, which may be the drum window edge', first('11759'), late(), '1759'],
    ['of two same digits, the one with a gap beside it was passed over', first('007590'), read('07590', undefined, [0.4, 1.6, 2.2, 2.8, 3.4]), '007590'],
  ])('%s', (_, f, r, want) => expect(withFirstPassDigit(f, r).text).toBe(want));

  it('puts back a last digit the first pass was sure of, one pitch past the read', () => {
    const out = withFirstPassDigit(first('008507', [0.97, 0.99, 0.96, 0.99, 0.91, 0.96]), read('00850'));
    expect(out.text).toBe('008507');
    expect((out.spans![5]!.x0 + out.spans![5]!.x1) / 2).toBeCloseTo(3.4);
    expect(out.confidences![5]).toBe(0.96);
  });

  it('puts the digit back before the window edge goes when only the digits-only read has the edge', () => {
    const boxed = read('102430', [0.2, 0.99, 0.99, 0.99, 0.99, 0.99], [0.05, 0.35, 1.0, 2.2, 2.8, 3.4]);
    expect(withFirstPassDigit(first('027430'), boxed, withoutWindowEdge).text).toBe('027430');
  });
});

describe('rowReading', () => {
  const plain = (text: string): DigitRead => ({ text });
  it.each([
    ['01989070', '0198900', '0198900', '019890'], // the first pass saw the dial's 70 in the box
    ['01755270', '01755270', '01755270', '017552'],
    ['16804', '168044', '1680412', '168044'], // nothing swallowed: the digits-only read decides
    ['00769', '00769', '007690', '007690'], // and the widened crop adds the tenths
    ['01989070', '5550', '5550', '5550'], // a digits-only read unlike the first pass is not trimmed by it
  ])('first %j, boxed %j, widened %j → %j', (first, boxed, widened, want) => expect(rowReading(plain(first), plain(boxed), plain(widened))?.value).toBe(want));

  it('drops the window edge from both close reads before adding the tenths', () => {
    const edge = [0.6, 0.99, 0.99, 0.99, 0.99, 0.99];
    const boxed = read('100539', edge, [0.05, 0.35, 1.0, 1.65, 2.3, 2.95]);
    const widened = read('1005392', [...edge, 0.9], [0.05, 0.35, 1.0, 1.65, 2.3, 2.95, 3.6]);
    expect(rowReading(plain('1005393'), boxed, widened)?.value).toBe('005392');
  });

  it('a tenths wheel the first pass read surely is the last digit: the widened crop adds no dial label after it', () => {
    const first: DigitRead = { text: '008507', confidences: [0.97, 0.99, 0.96, 0.99, 0.91, 0.96] };
    expect(rowReading(first, read('00850'), read('0085070'))?.value).toBe('008507');
  });

  it('drops the dial ticks past the drum that both digits-only reads forced to a digit', () => {
    const first = read('054137', [0.43, 0.68, 0.75, 0.79, 0.32, 0.31]);
    const confidences = [0.87, 0.82, 0.87, 0.68, 0.29, 0.28, 0.18];
    const past = (text: string, x: number) => read(text, confidences, [0.4, 1.0, 1.6, 2.2, 2.8, 3.4, x]);
    expect(rowReading(first, past('0541079', 4.5), past('0541078', 4.6), 4.8)?.value).toBe('054107');
  });

  it('puts back the digit only the first pass saw when the widened crop adds none', () => {
    const boxed = read('02430', [0.9, 0.9, 0.9, 0.9, 0.3], [0.4, 1.0, 2.2, 2.8, 3.4]);
    expect(rowReading(plain('024305'), boxed, boxed)?.value).toBe('02430');
    expect(rowReading(plain('027430'), boxed, boxed)?.value).toBe('027430');
  });
});

describe('passedOverWheel', () => {
  // The drum 0 0 5 3 9 at a pitch of 0.6 (centres 0.4 ... 2.8); the first pass read the drum
  // window's edge as a leading 1 and one more digit, unsurely, one pitch past the 9.
  const drum = read('00539');
  const first = (text: string, last: number, lastConfidence = 0.32): DigitRead => {
    const centres = [...text].map((_, i) => 0.4 + (i - (text.length - 6)) * 0.6);
    centres[centres.length - 1] = last;
    return read(text, [...[...text].slice(1).map(() => 0.99), lastConfidence], centres);
  };
  it.each<[string, DigitRead, DigitRead, string | undefined]>([
    ['the wheel one pitch past the read, read by the first pass alone', first('1005393', 3.4), drum, '3'],
    ['however sure the first pass was of it', first('1005393', 3.4, 0.95), drum, '3'],
    ['without a window edge before it', first('005393', 3.4), drum, '3'],
    ['not where the read\'s last wheel stands', first('1005393', 3.0), drum, undefined],
    ['not two pitches past it (a dial label, or a wheel missed between)', first('1005393', 4.1), drum, undefined],
    ['not when the first pass read the drum otherwise', first('1005893', 3.4), drum, undefined],
    ['not a letter', first('100539A', 3.4), drum, undefined],
    ['not after fewer than four digits (no drum)', first('1393', 1.6), read('39', undefined, [0.4, 1.0]), undefined],
    ['nothing when the first pass read no more than the read', first('00539', 2.8), drum, undefined],
  ])('%s', (_, f, r, want) => expect(passedOverWheel(f, r)?.digit).toBe(want));

  it('is handed on by the row reading, whose value stays without it', () => {
    const first: DigitRead = read('1005393', [0.5, 0.97, 0.99, 0.99, 0.99, 0.99, 0.32], [0.05, 0.4, 1.0, 1.6, 2.2, 2.8, 3.4]);
    const boxed = read('100539', [0.5, 0.97, 0.99, 0.99, 0.99, 0.98], [0.05, 0.4, 1.0, 1.6, 2.2, 2.8]);
    const row = rowReading(first, boxed, boxed);
    expect(row?.value).toBe('00539');
    expect(row?.passedOver?.digit).toBe('3');
    expect(row?.passedOver?.centre).toBeCloseTo(3.4);
    // A first pass that read no more than the box hands on nothing.
    expect(rowReading(read('100539', [0.5, 0.97, 0.99, 0.99, 0.99, 0.98], [0.05, 0.4, 1.0, 1.6, 2.2, 2.8]), boxed, boxed)?.passedOver).toBeUndefined();
  });
});
