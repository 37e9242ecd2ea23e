import { describe, expect, it } from 'vitest';
import { dedupePlates, dropSubordinateText, isOverlayText } from './plate-dedupe.js';

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
