import { describe, expect, it } from 'vitest';
import { dedupePlates, dropSubordinateText, dropTruncatedReadings, isOverlayText } from './plate-dedupe.js';

const box = (xmin: number, ymin: number, xmax: number, ymax: number) => ({ xmin, ymin, xmax, ymax });

describe('plate result filters', () => {
  it('keeps the first of overlapping or identical readings', () => {
    const out = dedupePlates([
      { plate: 'ABC1234', textBox: box(0, 0, 100, 30) },
      { plate: 'ABC123', textBox: box(5, 0, 90, 30) },
      { plate: 'ABC1234', textBox: box(500, 0, 600, 30) },
      { plate: 'XYZ9876', textBox: box(300, 0, 400, 30) },
    ]);
    expect(out.map((o) => o.plate)).toEqual(['ABC1234', 'XYZ9876']);
  });

  it('drops a slogan under a taller plate number', () => {
    const out = dropSubordinateText([
      { plate: 'THEFIRSTSTATE', textBox: box(10, 80, 150, 95), lineHeight: 15, matched: false },
      { plate: '508736', textBox: box(20, 30, 140, 75), lineHeight: 45, matched: true },
    ]);
    expect(out.map((o) => o.plate)).toEqual(['508736']);
  });

  it('keeps a number that a taller stacked reading takes in (an emblem stacked over the number)', () => {
    // A wheelchair sign boxed above the number's left end makes a two-line candidate whose taller
    // line is the sign: the number is one of its lines, not a slogan under it.
    const out = dropSubordinateText([
      { plate: '2853FL', textBox: box(828, 176, 910, 251), lineHeight: 45, matched: true },
      { plate: '853FL', textBox: box(828, 218, 904, 249), lineHeight: 31, matched: true },
    ]);
    expect(out.map((o) => o.plate)).toEqual(['2853FL', '853FL']);
  });

  it('keeps a plate under taller text that is no plate number (a taxi roof number)', () => {
    const out = dropSubordinateText([
      { plate: '1056', textBox: box(20, 0, 140, 60), lineHeight: 60, matched: false },
      { plate: '75061H1', textBox: box(30, 90, 130, 120), lineHeight: 30, matched: true },
    ]);
    expect(out.map((o) => o.plate)).toEqual(['1056', '75061H1']);
  });

  it('recognises a time stamp along the edge of a scene, not a plate on a crop', () => {
    expect(isOverlayText('20140423', box(0, 0, 200, 20), 720)).toBe(true);
    expect(isOverlayText('508736', box(20, 5, 300, 150), 160)).toBe(false);
    expect(isOverlayText('ABC123', box(0, 0, 200, 20), 720)).toBe(false);
  });
});

describe('dropTruncatedReadings', () => {
  // A line box that stopped short of the last character reads 1AD849 (a format of its own);
  // the line over the whole number reads 1AD849T, the T surely.
  const short = { plate: '1AD849', textBox: box(10, 40, 265, 120), weakest: 0.93 };
  it.each([
    ['the same text with a sure last character over its columns', { plate: '1AD849T', textBox: box(10, 38, 306, 122), weakest: 0.9 }, []],
    ['a sure first character', { plate: '51AD849', textBox: box(-30, 38, 266, 122), weakest: 0.9 }, []],
    ['an unsure extra character (an emblem, a bolt)', { plate: '1AD849T', textBox: box(10, 38, 306, 122), weakest: 0.4 }, ['1AD849']],
    ['another reading of the same characters', { plate: '1A0849T', textBox: box(10, 38, 306, 122), weakest: 0.9 }, ['1AD849']],
    ['the longer text elsewhere', { plate: '1AD849T', textBox: box(400, 38, 700, 122), weakest: 0.9 }, ['1AD849']],
    ['its I/1 twin with a sure last character', { plate: 'IAD849T', textBox: box(10, 38, 306, 122), weakest: 0.9 }, []],
    ['a letter on a line above it (stacked lines)', { plate: 'C1AD849', textBox: box(10, 0, 270, 120), weakest: 0.95 }, ['1AD849']],
    ['two more characters (a sticker or a frame\'s digits beside the number)', { plate: '1AD849T3', textBox: box(10, 38, 400, 122), weakest: 0.9 }, ['1AD849']],
  ])('beside %s', (_what, long, kept) => {
    const out = dropTruncatedReadings([short, long]).filter((r) => r !== long);
    expect(out.map((r) => r.plate)).toEqual(kept);
  });
});
