import { describe, expect, it } from 'vitest';
import { hasWideCharacters } from './plate-font.js';

const box = (width: number) => ({ xmin: 100, ymin: 50, xmax: 100 + width, ymax: 90 });

describe('hasWideCharacters', () => {
  it.each([
    // [text width, line height, characters, wide]
    [115, 40, 7, false], // a US number: characters about 0.41 of their height wide
    [145, 40, 7, false], // the widest US fonts, 0.52
    [176, 40, 7, true], // a Brazilian grey plate, 0.63 (the dash between letters and digits included)
    [188, 40, 7, true], // a European plate, 0.67
    [100, 40, 0, false], // nothing read
    [100, 0, 7, false], // no height
  ])('%i px of text %i px tall with %i characters: wide %s', (width, height, length, wide) => {
    expect(hasWideCharacters(box(width), height, length)).toBe(wide);
  });
});
