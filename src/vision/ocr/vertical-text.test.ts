import { describe, expect, it } from 'vitest';
import type { Quad } from './geometry.js';
import { groupCharacterColumns } from './vertical-text.js';

const box = (x: number, y: number, w: number, h: number): Quad => [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }];

describe('groupCharacterColumns', () => {
  it.each([
    {
      why: 'single characters one under another form a column',
      quads: [box(100, 100, 60, 80), box(102, 195, 58, 80), box(98, 290, 62, 80)],
      columns: [box(98, 100, 62, 270)],
      rest: 0,
    },
    {
      why: 'a character left on its own above a run the detector cut out of the same column',
      quads: [box(200, 160, 75, 100), box(195, 270, 85, 540)],
      columns: [box(195, 160, 85, 650)],
      rest: 0,
    },
    {
      why: 'two runs of one column that overlap by a character, and a last character below',
      quads: [box(280, 160, 74, 266), box(278, 382, 82, 267), box(282, 650, 72, 111)],
      columns: [box(278, 160, 82, 601)],
      rest: 0,
    },
    {
      why: 'two characters alone are not a column',
      quads: [box(100, 100, 60, 80), box(100, 195, 60, 80)],
      columns: [],
      rest: 2,
    },
    {
      why: 'a run alone is left to be read as it is',
      quads: [box(300, 100, 80, 600)],
      columns: [],
      rest: 1,
    },
    {
      why: 'horizontal lines of text, one above the other, are not a column',
      quads: [box(100, 100, 400, 60), box(100, 180, 400, 60), box(100, 260, 400, 60)],
      columns: [],
      rest: 3,
    },
    {
      why: 'a run and a character in different columns stay apart',
      quads: [box(100, 100, 80, 500), box(400, 610, 70, 90)],
      columns: [],
      rest: 2,
    },
    {
      why: 'a run and a character far below it stay apart',
      quads: [box(100, 100, 80, 500), box(100, 900, 75, 100)],
      columns: [],
      rest: 2,
    },
  ])('$why', ({ quads, columns, rest }) => {
    const out = groupCharacterColumns(quads);
    expect(out.columns).toEqual(columns);
    expect(out.rest).toHaveLength(rest);
  });
});
