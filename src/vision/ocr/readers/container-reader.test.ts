import { describe, expect, it } from 'vitest';
import type { TextLine } from '../ocr.types.js';
import type { RawImage } from '../../image/decode.js';
import type { OcrEngine } from '../ocr-engine.js';
import { findCodes, partialCodeRegions, readRegion, readStackedColumns } from './container-reader.js';
import { placed } from './line-geometry.js';

/** A line read with 0.97 per character, except the probabilities given by position. */
const line = (text: string, probs: Record<number, number> = {}, orientation: TextLine['orientation'] = 'horizontal'): TextLine => {
  const p = [...text].map((_, i) => probs[i] ?? 0.97);
  return {
    text, confidence: p.reduce((a, b) => a + b, 0) / p.length, charConfidences: p,
    alternatives: [...text].map((c, i) => [{ char: c, prob: p[i]! }]),
    box: orientation === 'vertical'
      ? [{ x: 100, y: 100 }, { x: 120, y: 100 }, { x: 120, y: 400 }, { x: 100, y: 400 }]
      : [{ x: 100, y: 100 }, { x: 400, y: 100 }, { x: 400, y: 130 }, { x: 100, y: 130 }],
    orientation, layout: orientation === 'vertical' ? 'rotated_ccw' : 'upright',
  };
};

describe('findCodes', () => {
  it.each([
    { why: 'a code as read', lines: [line('CSQU3054383')], codes: ['CSQU3054383'] },
    {
      why: 'a faint mark above a vertical code (a post edge) is left out, and the code corrected',
      lines: [line('LTEM09545687', { 0: 0.17, 4: 0.39 }, 'vertical')],
      codes: ['TEMU9545687'],
    },
    { why: 'faint marks at both ends', lines: [line('ITEM095456871', { 0: 0.2, 4: 0.4, 12: 0.25 })], codes: ['TEMU9545687'] },
    {
      why: 'a character read with confidence is not dropped to make a code fit',
      lines: [line('XTEM05037029', { 0: 0.9 })],
      codes: [],
    },
    { why: 'junk with faint ends is still junk', lines: [line('LMAXGROSSKGSL', { 0: 0.2, 12: 0.2 })], codes: [] },
  ])('$why', ({ lines, codes }) => {
    expect(findCodes(placed(lines)).map((c) => c.value)).toEqual(codes);
  });
  it('reports a code painted twice once, at its larger marking', () => {
    const at = (x: number, y: number, w: number, h: number, probs: Record<number, number> = {}): TextLine => ({
      ...line('TRHU3074372', probs), box: [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }],
    });
    // The roof rail's small code read more surely than the door's large one.
    const roof = at(220, 194, 424, 49);
    const door = at(877, 590, 509, 76, { 3: 0.9 });
    for (const lines of [[roof, door], [door, roof]]) {
      const codes = findCodes(placed(lines));
      expect(codes.map((c) => c.value)).toEqual(['TRHU3074372']);
      expect(codes[0]!.box).toEqual({ xmin: 877, ymin: 590, xmax: 1386, ymax: 666 });
    }
  });

  it('boxes the larger marking though only the smaller one was read whole', () => {
    const roof = { ...line('TRHU3074372'), box: [{ x: 220, y: 194 }, { x: 644, y: 194 }, { x: 644, y: 243 }, { x: 220, y: 243 }] } satisfies TextLine;
    // The door's boxed check digit was not seen: its ten characters alone are no valid code.
    const door = { ...line('TRHU307437'), box: [{ x: 877, y: 590 }, { x: 1305, y: 590 }, { x: 1305, y: 666 }, { x: 877, y: 666 }] } satisfies TextLine;
    const codes = findCodes(placed([roof, door]));
    expect(codes.map((c) => [c.value, c.confidence])).toEqual([['TRHU3074372', findCodes(placed([roof]))[0]!.confidence]]);
    expect(codes[0]!.box).toEqual({ xmin: 877, ymin: 590, xmax: 1305, ymax: 666 });
  });
});

describe('partialCodeRegions', () => {
  const at = (text: string, x: number, y: number, w: number, h: number, orientation: TextLine['orientation'], layout: TextLine['layout']): TextLine => ({
    ...line(text, {}, orientation), box: [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }], layout,
  });
  const image = { width: 1920, height: 1080 };
  // 8 characters at 40 px: 4.5 characters (180 px) missing at the end, 30 px of margin at the start.
  it.each([
    { why: 'an owner code read down a column: the rest is below', l: at('DRYU2138', 800, 300, 40, 320, 'vertical', 'rotated_ccw'), span: [270, 800], along: 'y' },
    { why: 'an owner code read up a column: the rest is above', l: at('DRYU2138', 800, 300, 40, 320, 'vertical', 'rotated_cw'), span: [120, 650], along: 'y' },
    { why: 'an owner code along a row: the rest is to the right', l: at('DRYU2138', 300, 500, 320, 40, 'horizontal', 'upright'), span: [270, 800], along: 'x' },
    { why: 'a serial alone may miss either end', l: at('21387744', 300, 500, 320, 40, 'horizontal', 'upright'), span: [120, 800], along: 'x' },
    { why: 'a code missing its first letter (no category letter fourth) may miss either end', l: at('RYU21387', 300, 500, 320, 40, 'horizontal', 'upright'), span: [120, 800], along: 'x' },
  ])('$why', ({ l, span, along }) => {
    const [r] = partialCodeRegions(placed([l]), image);
    const [from, to] = along === 'y' ? [r!.tight.y, r!.tight.y + r!.tight.h] : [r!.tight.x, r!.tight.x + r!.tight.w];
    expect([from, to]).toEqual(span);
  });

  it.each(['30480KGS', '67.200 LBS', 'SS67200LBS'])('a weight, %s, is not taken for part of a code', (text) => {
    expect(partialCodeRegions(placed([at(text, 300, 500, 320, 40, 'horizontal', 'upright')]), image)).toEqual([]);
  });
});

describe('readStackedColumns', () => {
  // Eleven dark hollow glyphs, 7x10 px, stacked down a light picture: one column to read.
  const image: RawImage = { data: Buffer.alloc(300 * 300, 200), width: 300, height: 300, channels: 1 };
  for (let k = 0; k < 11; k++) {
    for (let y = 0; y < 10; y++) for (let x = 0; x < 7; x++) if (x < 2 || x > 4 || y < 2 || y > 7) image.data[(60 + k * 13 + y) * 300 + 100 + x] = 40;
  }
  /** An engine whose recogniser reads every crop as `text` (0.95 per character, except `probs`). */
  const reading = (text: string, probs: Record<number, number> = {}): OcrEngine => ({
    recognizeCrops: async (crops: readonly RawImage[]) => crops.map(() => {
      const p = [...text].map((_, i) => probs[i] ?? 0.95);
      return { text, confidence: p.reduce((a, b) => a + b, 0) / p.length, charConfidences: p, alternatives: [...text].map((c, i) => [{ char: c, prob: p[i]! }]) };
    }),
  }) as unknown as OcrEngine;

  it.each([
    { why: 'a code read whole', text: 'TEMU9548541', codes: ['TEMU9548541'] },
    { why: 'a worn category letter read as 0: one change, the check digit holds', text: 'TEM09545687', probs: { 3: 0.5 }, codes: ['TEMU9545687'] },
    { why: 'two changes are too many for a column found without the detector', text: 'TEM09545681', probs: { 3: 0.5, 10: 0.5 }, codes: [] },
    { why: 'ten characters: the check digit is not made up', text: 'TEMU954854', codes: [] },
    { why: 'a check digit that does not hold', text: 'TEMU9548542', codes: [] },
  ] as Array<{ why: string; text: string; probs?: Record<number, number>; codes: string[] }>)('$why', async ({ text, probs, codes }) => {
    const found = await readStackedColumns(reading(text, probs), image);
    expect(found.map((c) => c.value)).toEqual(codes);
    for (const c of found) expect(c.orientation).toBe('vertical');
  });
});

describe('readRegion', () => {
  const image: RawImage = { data: Buffer.alloc(200 * 200 * 3, 200), width: 200, height: 200, channels: 3 };
  const box = { x: 20, y: 20, w: 60, h: 160 };
  it.each([
    { layout: 'upright', orientation: 'horizontal', read: ['upright'] },
    { layout: 'upside_down', orientation: 'horizontal', read: ['upside_down'] },
    { layout: 'rotated_ccw', orientation: 'vertical', read: ['rotated_ccw'] },
    { layout: 'rotated_cw', orientation: 'vertical', read: ['rotated_cw'] },
    { layout: 'stacked', orientation: 'vertical', read: ['rotated_ccw', 'rotated_cw'] },
  ] as const)('a partial line read $layout is read whole $read', async ({ layout, orientation, read }) => {
    let crops = 0;
    const engine = {
      readLines: async () => [],
      recognizeCrops: async (cs: readonly RawImage[]) => cs.map(() => {
        crops++;
        return { text: 'CSQU3054383', confidence: 0.95, charConfidences: Array(11).fill(0.95), alternatives: [...'CSQU3054383'].map((c) => [{ char: c, prob: 0.95 }]) };
      }),
    } as unknown as OcrEngine;
    const lines = await readRegion(engine, image, { wide: box, tight: box, orientation, layout });
    expect(crops).toBe(read.length);
    expect(lines.map((l) => l.line.layout).sort()).toEqual([...read].sort());
  });
});
