import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { type Quad, uprightQuad } from './geometry.js';
import type { DecodedText } from './ctc-decode.js';
import { type BestReading, cutLines, firstVariants, keepBest, preferAgreement, type Variant } from './line-layouts.js';

const quad = (...p: Array<[number, number]>): Quad => p.map(([x, y]) => ({ x, y })) as Quad;

/** A tilted column of a trailer's number as the text detector's box ordering gives it: it
 * starts at the bottom-left corner and runs its first edge up the long side. */
const steepColumn = quad([84, 628], [135, 70], [183, 74], [132, 632]);

describe('uprightQuad', () => {
  it('starts a steep, thin box at its top-left corner, its top edge first', () => {
    expect(uprightQuad(steepColumn)).toEqual(quad([135, 70], [183, 74], [132, 632], [84, 628]));
  });

  it('leaves a box already ordered from its top-left corner as it is, tilted or not', () => {
    const level = quad([10, 10], [110, 10], [110, 40], [10, 40]);
    const tilted = quad([10, 40], [96, -10], [111, 16], [25, 66]);
    expect(uprightQuad(level)).toEqual(level);
    expect(uprightQuad(tilted)).toEqual(tilted);
  });
});

describe('cutLines', () => {
  const image: RawImage = { data: Buffer.alloc(300 * 700 * 3, 200), width: 300, height: 700, channels: 3 };

  it('cuts a steep column of characters as a tall crop, to be read turned or as a stack', () => {
    const [line] = cutLines(image, [steepColumn], true);
    expect(line!.orientation).toBe('vertical');
    expect(line!.crop.height).toBeGreaterThan(5 * line!.crop.width);
  });

  it('without vertical reading, cuts boxes as the detector ordered them', () => {
    const [line] = cutLines(image, [steepColumn], false);
    expect(line!.orientation).toBe('horizontal');
    expect(line!.crop.width).toBeGreaterThan(5 * line!.crop.height);
  });
});

describe('cutLines for a stack reader', () => {
  const image: RawImage = { data: Buffer.alloc(300 * 700 * 3, 200), width: 300, height: 700, channels: 3 };

  it('also cuts a tall line longer by its width at both ends, and only a tall one', () => {
    const [column] = cutLines(image, [steepColumn], true, true);
    expect(column!.longCrop!.width).toBe(column!.crop.width);
    expect(Math.abs(column!.longCrop!.height - (column!.crop.height + 2 * column!.crop.width))).toBeLessThanOrEqual(2);
    expect(cutLines(image, [steepColumn], true, false)[0]!.longCrop).toBeUndefined();
    const [level] = cutLines(image, [quad([10, 10], [210, 10], [210, 40], [10, 40])], true, true);
    expect(level!.longCrop).toBeUndefined();
  });

  it('keeps an end in place where it would run into another text box', () => {
    const column = quad([100, 100], [140, 100], [140, 400], [100, 400]);
    // A line of words painted across, just under the column.
    const below = quad([60, 410], [260, 410], [260, 440], [60, 440]);
    const [alone] = cutLines(image, [column], true, true);
    const [beside] = cutLines(image, [column, below], true, true);
    expect(beside!.longCrop!.height).toBeLessThan(alone!.longCrop!.height);
    expect(beside!.longCrop!.height).toBeGreaterThan(beside!.crop.height);
  });

  it('gives the stack reader the long column beside the laid-out stack and the turned line', () => {
    const [column] = cutLines(image, [steepColumn], true, true);
    const { first } = firstVariants([column!], {}, true);
    const forModel = first.filter((v) => v.column);
    expect(forModel).toHaveLength(1);
    expect(forModel[0]!.crop).toBe(column!.longCrop);
    expect(first.some((v) => v.layout === 'rotated_ccw' && !v.column)).toBe(true);
  });
});

describe('preferAgreement', () => {
  const reading = (text: string, confidence: number): DecodedText => ({ text, confidence, charConfidences: [...text].map(() => confidence), alternatives: [] });
  const crop: RawImage = { data: Buffer.alloc(3), width: 1, height: 1, channels: 3 };
  const read = (texts: Array<[string, number, Variant['layout'], boolean?]>) => {
    const variants: Variant[] = texts.map(([, , layout, column]) => ({ line: 0, crop, layout, ...(column ? { column: true as const } : {}) }));
    const best = new Map<number, BestReading>();
    keepBest(best, variants, texts.map(([text, confidence]) => reading(text, confidence)));
    return { best, variants };
  };

  it('takes the text two readers agree on over a surer reading alone', () => {
    // PP-OCR read the laid-out stack's 5 as a 6, surely; turned, and by the stack reader, F535.
    const { best, variants } = read([['F535', 0.9, 'rotated_ccw'], ['F635', 0.98, 'stacked'], ['F535', 0.94, 'stacked', true]]);
    expect(best.get(0)!.d.text).toBe('F635');
    preferAgreement(best, variants);
    expect(best.get(0)!.d.text).toBe('F535');
    expect(best.get(0)!.d.confidence).toBe(0.94);
  });

  it('keeps the best reading where nothing agrees, or where it is itself agreed on', () => {
    const apart = read([['P8M84', 0.9, 'rotated_ccw'], ['P82084', 0.81, 'stacked'], ['P8384', 0.95, 'stacked', true]]);
    preferAgreement(apart.best, apart.variants);
    expect(apart.best.get(0)!.d.text).toBe('P8384');
    const agreed = read([['C N94525', 0.93, 'stacked'], ['CN94525', 0.85, 'stacked', true], ['C94525', 0.8, 'rotated_ccw']]);
    preferAgreement(agreed.best, agreed.variants);
    expect(agreed.best.get(0)!.d.text).toBe('C N94525');
  });
});
