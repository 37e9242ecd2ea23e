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

  it.each([
    // [text width (40 px tall, 7 characters), the detector's box width over height, wide]
    [140, 3.1, true], // a Brazilian grey plate whose city line made the text box tall: pitch 0.5
    [160, 2.6, true], // pitch 0.57 in a box a little wider than a North American plate's
    [154, 2.0, false], // the widest US fonts in a North American plate's box
    [130, 2.6, false], // a US plate seen square-on, its box drawn a little wide: pitch 0.46
    [176, 1.8, false], // a wide-looking line in a plate's box as square as a US plate's
    [188, 4.4, true], // a European plate
  ])('a line of %i px found in a plate box %f times as wide as tall: wide %s', (width, aspect, wide) => {
    expect(wideFont({ lines: [quad(width, 40)], plateAspect: aspect }, box(width), 40, 7)).toBe(wide);
  });

  it('keeps the pitch alone where no plate box was found (plate crops, the text passes)', () => {
    expect(wideFont({ lines: [quad(140, 40)] }, box(140), 40, 7)).toBe(false);
    expect(wideFont({ lines: [quad(140, 40)], plateAspect: 3.1 }, box(140), 40, 6)).toBeUndefined();
  });
});
