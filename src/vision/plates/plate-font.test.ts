import { describe, expect, it } from 'vitest';
import { wideCharacters } from './plate-font.js';

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
