import { describe, expect, it } from 'vitest';
import { type CharOption, expandReading, scoreReading, swapFloor } from './plate-scoring.js';

/** A reading as the recogniser gives it: per character the top choice and its runner-up. */
const read = (text: string, prob = 0.95, runnerUp: Record<number, string> = {}) =>
  [...text].map((c, i) => [{ char: c, prob }, ...(runnerUp[i] ? [{ char: runnerUp[i]!, prob: 0.04 }] : [])]);

const none = { regions: [], strictRegion: false, textFormats: [] };

describe('scoreReading', () => {
  it('keeps a clean reading on top and names its region', () => {
    const [top] = scoreReading(read('ABC1D23'), { ...none, regions: ['br'] });
    expect(top).toMatchObject({ plate: 'ABC1D23', matched: true, region: { code: 'br' } });
    expect(top!.score).toBeGreaterThan(0.9);
  });

  it('turns O into 0 where the Brazilian format wants a digit', () => {
    expect(scoreReading(read('ABCO234'), { ...none, regions: ['br'] })[0]?.plate).toBe('ABC0234');
    expect(scoreReading(read('A8C1234'), { ...none, regions: ['br'] })[0]?.plate).toBe('ABC1234');
  });

  it('answers with the region the client named (us-ca for a US template)', () => {
    expect(scoreReading(read('7ABC123'), { ...none, regions: ['us-ca'] })[0]?.region.code).toBe('us-ca');
  });

  it('drops readings outside the regions when strict', () => {
    expect(scoreReading(read('AB1234'), { ...none, regions: ['br'], strictRegion: true })).toEqual([]);
    expect(scoreReading(read('AB1234'), { ...none, regions: ['br'] })[0]?.plate).toBe('AB1234');
  });

  it('keeps a Slovak number under a strict Slovak hint and names the country', () => {
    const [top] = scoreReading(read('RK755AJ'), { ...none, regions: ['sk'], strictRegion: true });
    expect(top).toMatchObject({ plate: 'RK755AJ', matched: true, region: { code: 'sk' } });
  });

  it('prefers readings that match the client text formats', () => {
    expect(scoreReading(read('ABCO234'), { ...none, textFormats: ['^[a-z]{3}[0-9]{4}$'] })[0]?.plate).toBe('ABC0234');
  });

  it('ignores an invalid text format instead of failing', () => {
    expect(scoreReading(read('ABC1234'), { ...none, textFormats: ['(['] })[0]?.plate).toBe('ABC1234');
  });

  it('can leave out an unsure edge character (a bolt, a frame edge)', () => {
    const chars = [[{ char: 'I', prob: 0.2 }], ...read('ABC1234')];
    expect(scoreReading(chars, { ...none, regions: ['br'] })[0]?.plate).toBe('ABC1234');
  });

  it('scores all-letter words (state names) below plates with digits', () => {
    const word = scoreReading(read('GEORGIA'), none)[0]!;
    const plate = scoreReading(read('BMN2079'), none)[0]!;
    expect(word.score).toBeLessThan(plate.score);
  });
});

describe('expandReading', () => {
  it('lists the most probable strings first', () => {
    const out = expandReading(read('AB', 0.9, { 1: '8' }));
    expect(out[0]).toMatchObject({ text: 'AB' });
    expect(out.map((o) => o.text)).toContain('A8');
  });
});

describe('scoreReading with the region grammar', () => {
  it('reads G as 6 where the Missouri format (AB1 C2D) wants a digit and the recogniser was unsure', () => {
    const chars = [...'PK2V'].map((c) => [{ char: c, prob: 0.97 }]);
    chars.push([{ char: 'G', prob: 0.6 }, { char: '6', prob: 0.35 }], [{ char: 'M', prob: 0.97 }]);
    expect(scoreReading(chars, none)[0]).toMatchObject({ plate: 'PK2V6M', matched: true, region: { code: 'us' } });
    expect(scoreReading(chars, { ...none, regions: ['us'] })[0]?.plate).toBe('PK2V6M');
  });

  it('keeps a confident G where both readings fit a format', () => {
    // GHP995 (LLLDDD) and 6HP995 (DLLDDD) are both US shapes: the recogniser decides.
    expect(scoreReading(read('GHP995', 0.95, { 0: '6' }), { ...none, regions: ['us'] })[0]?.plate).toBe('GHP995');
  });
});

describe('unsure characters', () => {
  it('keeps an unsure first letter when the plate fits a format with it as well as without', () => {
    // OUQ6314 (ABC1234) and UQ6314 (AB1234) are both plate shapes: dropping a character the
    // recogniser saw, even unsure, needs more evidence than that.
    const chars = [[{ char: 'O', prob: 0.4 }, { char: 'D', prob: 0.3 }], ...read('UQ6314')];
    expect(scoreReading(chars, none)[0]?.plate).toBe('OUQ6314');
  });
});

describe('look-alike swaps against a sure character', () => {
  // Without a region hint every region's formats compete: one of them fits almost any reading
  // after one swap, so a swap must not overrule a character the recogniser saw clearly.
  it.each([
    // reading, sure (0.99) everywhere: the grammar may not swap 2->Z, A->4, B->8
    ['1A2E468', '1A2E468'], // not 1AZE468 (California)
    ['404148A', '404148A'], // not 4041484 (Illinois numeric)
    ['GR8BUNZ', 'GR8BUNZ'], // not GR88UNZ (British)
  ])('keeps %s read surely', (text, plate) => {
    // O/0 and I/1 are one character to the reader of a plate (see below).
    const loose = (s?: string) => s?.replace(/O/g, '0').replace(/I/g, '1');
    expect(loose(scoreReading(read(text, 0.99), none)[0]?.plate)).toBe(loose(plate));
  });

  it.each([
    // an unsure look-alike still bends to the format
    ['A8C1234', 0.8, 1, 'ABC1234'],
    ['1A2E468', 0.85, 2, '1AZE468'],
  ])('swaps %s where the character at %s was unsure', (text, prob, at, plate) => {
    const chars = read(text as string, 0.99);
    chars[at as number] = [{ char: (text as string)[at as number]!, prob: prob as number }];
    expect(scoreReading(chars, none)[0]?.plate).toBe(plate);
  });

  it('keeps O/0 and I/1 swaps open however sure the recogniser was (plate fonts draw them alike)', () => {
    expect(scoreReading(read('ABC12O4', 0.99), none)[0]?.plate).toBe('ABC1204');
  });

  it('lets a named region overrule a sure character', () => {
    expect(scoreReading(read('A8C1234', 0.99), { ...none, regions: ['br'] })[0]?.plate).toBe('ABC1234');
  });
});

describe('swapFloor', () => {
  it.each([
    // top, twin, sureCosts, expected floor
    [{ char: 'O', prob: 0.99 }, '0', true, 0.297],
    [{ char: '8', prob: 0.99 }, 'B', true, 0.0297],
    [{ char: '8', prob: 0.9 }, 'B', true, 0.27],
    [{ char: '8', prob: 0.99 }, 'B', false, 0.297],
  ])('%o -> %s (%s) at least %s', (top, twin, sure, floor) => {
    expect(swapFloor(top, twin, sure)).toBeCloseTo(floor, 3);
  });
});

describe('weakest character', () => {
  it('reports the least sure character the reading kept', () => {
    const chars = read('ABC1234', 0.95);
    chars[6] = [{ char: '4', prob: 0.7 }];
    const top = scoreReading(chars, none)[0]!;
    expect(top.plate).toBe('ABC1234');
    expect(top.weakest).toBeCloseTo(0.7);
  });

  it.each([
    // reading (0.95 each), plate it becomes, weakest: an O read for 0 is seen surely, an 8 read for B is not
    ['ABC12O4', 'ABC1204', 0.95],
    ['A8C1234', 'ABC1234', 0.285],
  ])('%s read as %s has its weakest character at %s', (text, plate, weakest) => {
    const top = scoreReading(read(text, 0.95), { ...none, regions: ['br'] })[0]!;
    expect(top.plate).toBe(plate);
    expect(top.weakest).toBeCloseTo(weakest);
  });
});

describe('unsure end characters without a region hint', () => {
  // The recogniser's reading: sure characters and, where given, one unsure character at an end
  // (a bolt, an emblem, a stacked code) with its probability.
  const withEnd = (text: string, end: 'first' | 'last', char: string, prob: number) => {
    const chars: CharOption[][] = read(text, 0.97);
    const odd = [{ char, prob }];
    return end === 'first' ? [odd, ...chars] : [...chars, odd];
  };

  it.each([
    // sure text, where the unsure character is, the character, its probability
    ['3127K', 'last', 'B', 0.39], // 3127KB: Portugal's 00-00-AA
    ['853FL', 'first', '2', 0.38], // 2853FL: the same
  ] as const)('a look of %s with a stray %s character %s at %s does not outscore a clean look', (text, end, char, prob) => {
    const clean = scoreReading(read(text, 0.97), none)[0]!;
    const stray = scoreReading(withEnd(text, end, char, prob), none)[0]!;
    expect(stray.score).toBeLessThan(clean.score);
  });

  it.each([
    // both readings fit a format: the character the recogniser saw stays
    ['UQ6314', 'first', 'O', 0.4, 'OUQ6314'],
    ['ABC123', 'last', '4', 0.45, 'ABC1234'],
  ] as const)('%s with a %s character %s at %s reads %s', (text, end, char, prob, plate) => {
    expect(scoreReading(withEnd(text, end, char, prob), none)[0]?.plate).toBe(plate);
  });

  it('lets a named region\'s format complete the reading', () => {
    expect(scoreReading(withEnd('3127K', 'last', 'B', 0.39), { ...none, regions: ['pt'] })[0]?.plate).toBe('3127KB');
  });
});
