import { describe, expect, it } from 'vitest';
import { candidatesToRead, findPlateCandidates, withoutCropSmallPrint } from './candidate-finder.js';
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

describe('candidatesToRead', () => {
  // A 320 x 160 plate crop: a dealer frame's three words above and below (boxed surely, in
  // plate-like shapes) and the number, 90 px tall and boxed near square.
  const texts = [
    { quad: rect(90, 2, 160, 38), score: 0.99 },
    { quad: rect(20, 130, 70, 24), score: 0.99 },
    { quad: rect(200, 130, 100, 24), score: 0.99 },
    { quad: rect(20, 40, 150, 90), score: 0.98 },
  ];
  const pick = { limit: 3, minScore: 0.2, imageWidth: 320, imageHeight: 160 };

  it.each([
    ['a plate crop: the number, not the frame\'s words', pick, [90]],
    ['redaction keeps the small print', { ...pick, keepSmallPrint: true }, [38, 24, 24]],
    ['a scene keeps every line in plate-likeness order', { ...pick, imageWidth: 1920, imageHeight: 1080 }, [38, 24, 24]],
  ])('%s', (_what, options, heights) => {
    const out = candidatesToRead(texts, options);
    expect(out.map((c) => c.lines[0]![3].y - c.lines[0]![0].y)).toEqual(heights);
  });

  it('leaves out candidates centred where a plate was read surely, and reads the next in their place', () => {
    const scene = { ...pick, limit: 1, imageWidth: 1920, imageHeight: 1080 };
    const sureAreas = [{ xmin: 60, ymin: 0, xmax: 280, ymax: 60 }];
    expect(candidatesToRead(texts, { ...scene, sureAreas }).map((c) => c.lines[0]![0])).toEqual([{ x: 20, y: 130 }]);
    expect(candidatesToRead(texts, scene).map((c) => c.lines[0]![0])).toEqual([{ x: 90, y: 2 }]);
  });

  it('leaves out candidates below the plate-likeness floor', () => {
    expect(candidatesToRead([{ quad: rect(20, 40, 150, 90), score: 0.1 }], pick)).toEqual([]);
  });
});

describe('a plate crop on which the detector boxed nothing', () => {
  it.each([
    // width, height, lines read (the band's top and bottom)
    [164, 69, [[10.35, 58.65]]], // a blurred US crop: its middle band
    [300, 64, [[9.6, 54.4]]], // an EU crop
    [320, 240, []], // a photo's shape
    [1280, 540, []], // a wide photo: too large for a crop
  ])('%i x %i', (width, height, bands) => {
    const out = candidatesToRead([], { limit: 3, minScore: 0.2, imageWidth: width, imageHeight: height });
    expect(out.map((c) => [c.lines[0]![0].y, c.lines[0]![3].y])).toEqual(bands);
  });

  it('is not read when threshold_d asks for surer plates than a guess', () => {
    expect(candidatesToRead([], { limit: 3, minScore: 0.5, imageWidth: 164, imageHeight: 69 })).toEqual([]);
  });

  it('is not read when the detector boxed any text', () => {
    const out = candidatesToRead([{ quad: rect(0, 0, 5, 5), score: 0.9 }], { limit: 3, minScore: 0.2, imageWidth: 164, imageHeight: 69 });
    expect(out).toEqual([]);
  });
});
