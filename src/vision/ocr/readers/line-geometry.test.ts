import { describe, expect, it } from 'vitest';
import type { TextLine } from '../ocr.types.js';
import { asciiForms, neighbourGroups, placed } from './line-geometry.js';

const line = (text: string, x: number, y: number, w: number, h: number, orientation: TextLine['orientation'] = 'horizontal'): TextLine => ({
  text, confidence: 0.9, charConfidences: [...text].map(() => 0.9), alternatives: [...text].map((c) => [{ char: c, prob: 0.9 }]),
  box: [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }], orientation, layout: orientation === 'vertical' ? 'rotated_ccw' : 'upright',
});

describe('line geometry', () => {
  it.each([
    ['２０４５５', '20455'],
    ['TＲ44７1', 'TR4471'],
    ['CSQU 305438', 'CSQU 305438'],
    ['鲁RF1313', '鲁RF1313'],
  ])('asciiForms(%s) is %s, one character for one', (text, ascii) => {
    expect(asciiForms(text)).toBe(ascii);
    expect(asciiForms(text)).toHaveLength(text.length);
  });

  it('places lines with their text in ASCII forms', () => {
    expect(placed([line('ＴＲ４４７１', 10, 10, 100, 30)])[0]!.line.text).toBe('TR4471');
  });

  it.each([
    { name: 'horizontal pieces on one row group', lines: [line('CSQU', 0, 0, 100, 30), line('305438', 120, 0, 150, 30)], joined: 'CSQU305438' },
    { name: 'vertical pieces in one column group', lines: [line('DRYU21', 800, 340, 35, 250, 'vertical'), line('38774', 802, 600, 34, 220, 'vertical')], joined: 'DRYU2138774' },
    { name: 'vertical pieces side by side do not', lines: [line('DRYU21', 800, 340, 35, 250, 'vertical'), line('22G1', 920, 340, 34, 170, 'vertical')], joined: undefined },
    { name: 'a vertical piece and a horizontal one do not', lines: [line('DRYU21', 800, 340, 35, 250, 'vertical'), line('22G1', 800, 600, 120, 34)], joined: undefined },
  ])('$name', ({ lines, joined }) => {
    const pairs = neighbourGroups(placed(lines), 2).filter((g) => g.length === 2).map((g) => g.map((p) => p.line.text).join(''));
    expect(pairs[0]).toBe(joined);
  });
});
