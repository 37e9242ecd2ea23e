import { describe, expect, it } from 'vitest';
import { findPlateCandidates, withoutCropSmallPrint } from './candidate-finder.js';
import type { Quad } from './plate.types.js';

const rect = (x: number, y: number, w: number, h: number): Quad => [
  { x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h },
];

describe('findPlateCandidates', () => {
  it('ranks plate-shaped lines above long captions and tiny specks', () => {
    const out = findPlateCandidates([
      { quad: rect(10, 10, 600, 20), score: 0.99 }, // a caption: far too long
      { quad: rect(400, 300, 120, 30), score: 0.9 }, // plate-shaped
      { quad: rect(50, 50, 8, 4), score: 0.99 }, // a speck
    ], 5);
    expect(out).toHaveLength(1);
    expect(out[0]!.lines[0]).toEqual(rect(400, 300, 120, 30));
  });

  it('adds a merged candidate for a plate split in two boxes', () => {
    const out = findPlateCandidates([
      { quad: rect(400, 300, 60, 30), score: 0.9 },
      { quad: rect(475, 301, 70, 30), score: 0.9 },
    ], 5);
    const merged = out.find((c) => c.lines.length === 1 && c.lines[0]![0].x === 400 && c.lines[0]![1].x === 545);
    expect(merged).toBeDefined();
  });

  it('merges two groups whose boxes share the emblem between them', () => {
    // `XSZ [tree] 075`: each box takes in the tree, so they overlap by a third of the narrower.
    const out = findPlateCandidates([
      { quad: rect(20, 40, 125, 80), score: 0.99 },
      { quad: rect(100, 38, 190, 82), score: 0.99 },
    ], 5);
    expect(out[0]!.lines).toEqual([rect(20, 38, 270, 82)]);
  });

  it('does not merge a box with a duplicate box mostly inside it', () => {
    const out = findPlateCandidates([
      { quad: rect(400, 300, 120, 30), score: 0.9 },
      { quad: rect(430, 300, 100, 30), score: 0.9 },
    ], 5);
    expect(out).toHaveLength(2);
  });

  it('ranks the number of a plate crop above the small text around it', () => {
    // A tight crop: the number fills two thirds of its height; state name, slogan, stickers.
    const out = findPlateCandidates([
      { quad: rect(50, 5, 110, 20), score: 0.99 },
      { quad: rect(90, 130, 140, 15), score: 0.99 },
      { quad: rect(260, 10, 40, 20), score: 0.99 },
      { quad: rect(260, 125, 40, 22), score: 0.99 },
      { quad: rect(15, 30, 290, 96), score: 0.98 },
    ], 4);
    expect(out.some((c) => c.lines[0]![0].x === 15 && c.lines[0]![2].y === 126)).toBe(true);
  });

  it('does not merge a number with the stacked type code beside it', () => {
    // `5520 LE`: the L over the E is boxed as a column as tall as the number.
    const out = findPlateCandidates([
      { quad: rect(100, 35, 170, 87), score: 0.99 },
      { quad: rect(268, 11, 40, 111), score: 0.98 },
    ], 5);
    expect(out.every((c) => c.lines.length === 1 && c.lines[0]![1].x - c.lines[0]![0].x <= 170)).toBe(true);
  });

  it('adds a two-line candidate for stacked lines', () => {
    const out = findPlateCandidates([
      { quad: rect(400, 300, 80, 30), score: 0.9 },
      { quad: rect(395, 335, 90, 30), score: 0.9 },
    ], 5);
    expect(out.some((c) => c.lines.length === 2)).toBe(true);
  });

  it('keeps at most `limit` candidates', () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ quad: rect(10 + i * 200, 300, 100, 30), score: 0.9 }));
    expect(findPlateCandidates(many, 3)).toHaveLength(3);
  });
});

describe('withoutCropSmallPrint', () => {
  const candidate = (h: number, y: number) => ({ lines: [rect(20, y, 4 * h, h)], dscore: 0.9 });

  it('drops the small print around the number of a plate crop', () => {
    // A 240 x 120 plate crop: the number 60 px tall, a state name and a sticker line below it.
    const number = candidate(60, 30);
    const kept = withoutCropSmallPrint([candidate(14, 5), number, candidate(20, 95)], 120);
    expect(kept).toEqual([number]);
  });

  it('keeps every candidate of a scene photo, far plates included', () => {
    const near = candidate(60, 500);
    const far = candidate(18, 300);
    expect(withoutCropSmallPrint([near, far], 720)).toEqual([near, far]);
  });
});
