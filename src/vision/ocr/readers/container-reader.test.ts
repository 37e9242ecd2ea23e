import { describe, expect, it } from 'vitest';
import type { TextLine } from '../ocr.types.js';
import { findCodes } from './container-reader.js';
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
});
