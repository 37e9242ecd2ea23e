import { describe, expect, it } from 'vitest';
import { quadBounds } from '../../image/quad.js';
import type { TextLine } from '../ocr.types.js';
import { placed } from './line-geometry.js';
import { partialVinRows } from './vin-reader.js';

const line = (text: string, box: TextLine['box']): TextLine => ({
  text, confidence: 0.95, charConfidences: [...text].map(() => 0.95), alternatives: [...text].map((char) => [{ char, prob: 0.95 }]),
  box, orientation: 'horizontal', layout: 'upright',
});
const upright = (x: number, y: number, w: number, h: number): TextLine['box'] => [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }];

describe('partialVinRows', () => {
  // A stencilled VIN on a plate tilted up to the right, broken by the detector at a smudge: its
  // first four characters in a tilted box, its last seven in an upright one (as a short run's box
  // often is), the six between unread. Characters about 31 px apart.
  const start = line('SALE', [{ x: 247, y: 494 }, { x: 404, y: 479 }, { x: 410, y: 538 }, { x: 253, y: 554 }]);
  const end = line('1085338', upright(665, 437, 217, 57));

  it('reads the row from the first piece to the last first, along the line through both', () => {
    const [row] = partialVinRows(placed([start, end]));
    // The first piece's left edge begins it; the last piece's right edge, a character on, ends it.
    expect(row![0].x).toBeLessThan(250);
    expect(quadBounds(row!).x1).toBeGreaterThan(882 + 20);
    // Its left end at the first piece's height, below where the last piece's own box lies.
    expect(row![3].y).toBeGreaterThan(540);
    expect(row![0].y).toBeGreaterThan(470);
  });

  it('keeps the last piece\'s own row beside it', () => {
    expect(partialVinRows(placed([start, end]))).toHaveLength(2);
  });

  it('joins no piece too far to the left for the characters the VIN lacks', () => {
    const far = line('SALE', upright(-300, 440, 157, 55));
    expect(partialVinRows(placed([far, end]))).toHaveLength(1);
  });

  it('joins no line off the row (a caption above the number)', () => {
    const caption = line('VIN', upright(480, 360, 100, 35));
    expect(partialVinRows(placed([caption, end]))).toHaveLength(1);
  });
});
