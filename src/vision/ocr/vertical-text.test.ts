import { describe, expect, it } from 'vitest';
import type { Quad } from './geometry.js';
import type { RawImage } from '../image/decode.js';
import { columnBox } from './column-box.js';
import { characterRows, groupCharacterColumns, stackToLine } from './vertical-text.js';

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
      why: 'a placard boxed as a run under a column is no part of it (22G1 over a height sticker)',
      quads: [box(1093, 285, 50, 275), box(1069, 512, 95, 332)],
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

describe('a column that drifts sideways', () => {
  /** Whether `p` lies inside the convex quad `q` (corners clockwise on screen), to a hair. */
  const inside = (q: Quad, p: { x: number; y: number }) => q.every((a, k) => {
    const b = q[(k + 1) % 4]!;
    return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= -1e-6;
  });
  const sideTilt = (q: Quad) => (q[3].x - q[0].x) / (q[3].y - q[0].y);

  it('a narrow character boxed alone between two runs (the 0 of XEV0958) joins them, in a box along their drift', () => {
    const quads = [box(555, 134, 72, 256), box(555, 400, 35, 74), box(519, 473, 73, 257)];
    const out = groupCharacterColumns(quads);
    expect(out.rest).toHaveLength(0);
    expect(out.columns).toHaveLength(1);
    const column = out.columns[0]!;
    for (const p of quads.flat()) expect(inside(column, p)).toBe(true);
    expect(sideTilt(column)).toBeLessThan(-0.05);
  });

  it('characters on a tilted panel (F7148) get a box turned along them, narrower than the upright one', () => {
    // Each character 40 wide and 70 tall, 100 px apart, drifting 12 px right per character.
    const pieces = [0, 1, 2, 3, 4].map((k) => box(500 + 12 * k, 100 + 100 * k, 40, 70));
    const column = columnBox(pieces);
    for (const p of pieces.flat()) expect(inside(column, p)).toBe(true);
    expect(sideTilt(column)).toBeCloseTo(0.12, 2);
    const across = Math.hypot(column[1].x - column[0].x, column[1].y - column[0].y);
    expect(across).toBeLessThan(40 + 48);
    expect(across).toBeLessThan(0.7 * (40 + 4 * 12));
  });

  it('a tilted run joins the characters the detector boxed alone under it (MKC0664)', () => {
    // The run's own width is 64; its upright bounds are 100 wide, which made its characters
    // look too tall for the 6 and the 4 below it.
    const run: Quad = [{ x: 399, y: 151 }, { x: 463, y: 146 }, { x: 499, y: 590 }, { x: 435, y: 595 }];
    const quads = [run, box(451, 604, 46, 64), box(461, 701, 35, 49)];
    const out = groupCharacterColumns(quads);
    expect(out.rest).toHaveLength(0);
    expect(out.columns).toHaveLength(1);
    for (const p of quads.flat()) expect(inside(out.columns[0]!, p)).toBe(true);
  });

  it('a straight column keeps its upright box', () => {
    const pieces = [box(100, 100, 60, 80), box(102, 195, 58, 80), box(98, 290, 62, 80)];
    expect(columnBox(pieces)).toEqual(box(98, 100, 62, 270));
  });
});

/** A grey column of dark characters, each a block `glyph` rows tall, `gap` rows apart; with
 * `bridge`, each block is cut across its middle by that many rows, as a stencil font's are;
 * with `bar`, a dark line 3 px wide at the right, over those rows. */
function column(glyphs: number, options: { glyph: number; gap: number; bridge?: number; corner?: number; bar?: { from: number; to: number } }): RawImage {
  const width = 60, margin = 10;
  const height = 2 * margin + glyphs * options.glyph + (glyphs - 1) * options.gap;
  const data = Buffer.alloc(width * height * 3, 220);
  for (let k = 0; k < glyphs; k++) {
    const top = margin + k * (options.glyph + options.gap);
    const cutFrom = top + Math.floor((options.glyph - (options.bridge ?? 0)) / 2);
    for (let y = top; y < top + options.glyph; y++) {
      if (y >= cutFrom && y < cutFrom + (options.bridge ?? 0)) continue;
      for (let x = 15; x < 45; x++) data.fill(30, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  if (options.bar) for (let y = options.bar.from; y < options.bar.to; y++) data.fill(30, (y * width + 52) * 3, (y * width + 55) * 3);
  if (options.corner !== undefined) data.fill(options.corner, 0, 3);
  return { data, width, height, channels: 3 };
}

describe('characterRows', () => {
  it('finds one row per character in a plain column', () => {
    expect(characterRows(column(4, { glyph: 70, gap: 30 }))).toHaveLength(4);
  });

  it('keeps a stencilled character whole: its bridges are no gap between characters', () => {
    const rows = characterRows(column(4, { glyph: 70, gap: 30, bridge: 5 }));
    expect(rows).toHaveLength(4);
    expect(rows.map(([a, b]) => b - a)).toEqual([70, 70, 70, 70]);
  });

  it('does not join characters stacked closely: together they are taller than a character stands', () => {
    expect(characterRows(column(3, { glyph: 70, gap: 5 }))).toHaveLength(3);
  });
});

describe('stackToLine', () => {
  it('fills between the characters with the background, whatever colour the corner pixel has', () => {
    const line = stackToLine(column(3, { glyph: 70, gap: 30, corner: 0 }))!;
    // Column 1 lies in the gap before the first character, halfway down.
    const at = (24 * line.width + 1) * 3;
    expect([...line.data.subarray(at, at + 3)]).toEqual([220, 220, 220]);
  });

  it('paints over a bar or seam beside the column, taller than any character: it is read as a 1', () => {
    const plain = stackToLine(column(4, { glyph: 70, gap: 30 }))!;
    // A bar from the second character's top to the column's foot, at the crop's right side.
    expect(stackToLine(column(4, { glyph: 70, gap: 30, bar: { from: 110, to: 390 } }))).toEqual(plain);
    // A mark no taller than a character may be one: it stays.
    expect(stackToLine(column(4, { glyph: 70, gap: 30, bar: { from: 210, to: 270 } }))).not.toEqual(plain);
  });
});
