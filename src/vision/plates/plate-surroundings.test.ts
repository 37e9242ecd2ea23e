import { describe, expect, it } from 'vitest';
import { dropTextAroundPlates, surroundings } from './plate-surroundings.js';

// A number 100 px wide, 20 px tall.
const sure = { plate: 'ABC1234', score: 0.95, textBox: { xmin: 500, ymin: 400, xmax: 600, ymax: 420 }, lineHeight: 20 };
/** A reading of text 60 px wide and 20 px tall centred on (x, y). */
const at = (plate: string, x: number, y: number, score = 0.8) => ({ plate, score, textBox: { xmin: x - 30, ymin: y - 10, xmax: x + 30, ymax: y + 10 }, lineHeight: 20 });

describe('the surroundings of a sure plate', () => {
  const inside = (x: number, y: number) => {
    const a = surroundings(sure);
    return x >= a.xmin && x <= a.xmax && y >= a.ymin && y <= a.ymax;
  };

  it.each([
    { what: 'its dealer frame below', x: 550, y: 450, settled: true },
    { what: 'its car\'s badge five line heights above', x: 470, y: 300, settled: true },
    { what: 'the plate of a car beside it', x: 900, y: 410, settled: false },
    { what: 'the plate of a car behind it, higher in the photo', x: 550, y: 250, settled: false },
  ])('hold $what: $settled', ({ x, y, settled }) => {
    expect(inside(x, y)).toBe(settled);
  });
});

describe('dropTextAroundPlates', () => {
  it.each([
    { what: 'a model badge above the sure plate goes', other: at('CAMRY', 550, 330), kept: ['ABC1234'] },
    { what: 'a dealer\'s phone number under it goes', other: at('5551234', 550, 445), kept: ['ABC1234'] },
    { what: 'another car\'s plate beside it stays', other: at('XYZ789', 900, 410), kept: ['ABC1234', 'XYZ789'] },
    { what: 'a car\'s plate behind it, higher in the photo, stays', other: at('XYZ789', 550, 250), kept: ['ABC1234', 'XYZ789'] },
    { what: 'a reading surer than the plate stays', other: at('CAMRY', 550, 330, 0.97), kept: ['ABC1234', 'CAMRY'] },
    { what: 'another reading of the same line is left to dedupe', other: at('ABC123', 545, 410), kept: ['ABC1234', 'ABC123'] },
  ])('$what', ({ other, kept }) => {
    expect(dropTextAroundPlates([sure, other], 0.88).map((r) => r.plate)).toEqual(kept);
  });

  it.each([
    { what: 'a word above it goes', other: at('CAMRY', 550, 330), kept: ['ABC1234'] },
    { what: 'a number under it stays (it may be the plate, misread above it)', other: at('5551234', 550, 445), kept: ['ABC1234', '5551234'] },
    { what: 'a word surer than it stays', other: at('CAMRY', 550, 330, 0.9), kept: ['CAMRY', 'ABC1234'] },
  ])('around a plate read below the sure score, $what', ({ other, kept }) => {
    const unsure = { ...sure, score: 0.85 };
    expect(dropTextAroundPlates([unsure, other], 0.88).map((r) => r.plate).sort()).toEqual([...kept].sort());
  });

  it('keeps a vanity number under its state\'s name, which the reader took for a plate', () => {
    // ARIZONA read as ARZ20NA, surely, in small type over BUKTLST: the number is the taller
    // line, and small print clears no line a good deal taller than itself.
    const legend = { plate: 'ARZ20NA', score: 0.95, textBox: { xmin: 520, ymin: 380, xmax: 580, ymax: 390 }, lineHeight: 10 };
    const vanity = { plate: 'BUKTLST', score: 0.8, textBox: { xmin: 505, ymin: 395, xmax: 595, ymax: 420 }, lineHeight: 25 };
    expect(dropTextAroundPlates([legend, vanity], 0.88).map((r) => r.plate)).toEqual(['ARZ20NA', 'BUKTLST']);
  });

  it('clears nothing around a sure reading without a digit: it may be the badge, over the plate', () => {
    const badge = { ...sure, plate: 'SANDERO' };
    expect(dropTextAroundPlates([badge, at('ABC1234', 550, 445)], 0.88)).toHaveLength(2);
  });
});
