import { describe, expect, it } from 'vitest';
import { wideCharacters, wideFont } from './plate-font.js';
import type { Quad } from './plate.types.js';

const box = (width: number) => ({ xmin: 100, ymin: 50, xmax: 100 + width, ymax: 90 });

describe('wideCharacters', () => {
  it.each([
    // [text width, line height, characters, wide]
    [118, 40, 7, false], // a US number: 0.42 of the line height per character
    [154, 40, 7, false], // the widest US fonts, 0.55
    [176, 40, 7, true], // a Brazilian grey plate, 0.63 (the dash between letters and digits included)
    [188, 40, 7, true], // a European plate, 0.67
    [154, 40, 6, undefined], // six characters: US plates spread them as wide as European fonts
    [100, 0, 7, undefined], // no height
  ])('%i px of text %i px tall with %i characters: wide %s', (width, height, length, wide) => {
    expect(wideCharacters(box(width), height, length)).toBe(wide);
  });
});

describe('wideFont', () => {
  const quad = (w: number, h: number): Quad => [{ x: 10, y: 10 }, { x: 10 + w, y: 10 }, { x: 10 + w, y: 10 + h }, { x: 10, y: 10 + h }];
  it.each([
    // [box width, box height, characters, wide]
    [200, 100, 7, false], // a North American plate, 2:1
    [240, 100, 7, false], // one seen a little from the side
    [310, 100, 7, true], // a Brazilian plate, 3.1:1
    [470, 100, 7, true], // a European plate, 4.7:1
    [310, 100, 6, undefined], // six characters say nothing, as for text
  ])('the plate detector\'s whole box %i x %i with %i characters: wide %s', (w, h, length, wide) => {
    expect(wideFont({ lines: [quad(w, h)], wholePlate: true }, box(w), h, length)).toBe(wide);
  });

  it('measures a text line by its characters\' pitch, whatever its box', () => {
    // A Brazilian number's text, 176 x 40: the line is as wide as 4.4 heights but its pitch decides.
    expect(wideFont({ lines: [quad(176, 40)] }, box(176), 40, 7)).toBe(true);
    expect(wideFont({ lines: [quad(118, 40)] }, box(118), 40, 7)).toBe(false);
  });
});
