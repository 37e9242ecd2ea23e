import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { type Quad, quadBounds } from '../image/quad.js';
import { extendColumn } from './column-extension.js';

const box = (x: number, y: number, w: number, h: number): Quad => [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }];

const GLYPH = 40, GAP = 15, LEFT = 135, RIGHT = 165, TOP = 100;
/** Top of the k-th character of the column. */
const glyphTop = (k: number) => TOP + k * (GLYPH + GAP);

/** A grey panel with a column of dark characters (blocks 30 px wide, 40 tall, 15 apart) at
 * x 135-165 from y 100; `extra` adds dark rectangles (a word, a character set apart);
 * `bridge` cuts each character across its middle with a gap that tall (a stencil font). */
function panel(glyphs: number, extra: Array<{ x0: number; y0: number; x1: number; y1: number }> = [], bridge = 0, { ground = 200, ink = 40, patches = [] as Array<{ x0: number; y0: number; x1: number; y1: number; grey: number }> } = {}): RawImage {
  const width = 300, height = 700;
  const data = Buffer.alloc(width * height * 3, ground);
  const fill = (x0: number, y0: number, x1: number, y1: number, grey = ink) => {
    for (let y = y0; y < y1; y++) data.fill(grey, (y * width + x0) * 3, (y * width + x1) * 3);
  };
  // Patches of another grey under the characters: dirt, a shadow.
  for (const p of patches) fill(p.x0, p.y0, p.x1, p.y1, p.grey);
  const half = (GLYPH - bridge) / 2;
  for (let k = 0; k < glyphs; k++) {
    fill(LEFT, glyphTop(k), RIGHT, glyphTop(k) + half);
    fill(LEFT, glyphTop(k) + GLYPH - half, RIGHT, glyphTop(k) + GLYPH);
  }
  for (const r of extra) fill(r.x0, r.y0, r.x1, r.y1);
  return { data, width, height, channels: 3 };
}

const column = (from: number, to: number) => box(125, from, 50, to - from);

describe('extendColumn', () => {
  it('takes in the character the box cuts in half at its end', () => {
    const image = panel(6);
    const cut = column(TOP - 5, glyphTop(5) + GLYPH / 2);
    const { y0, y1 } = quadBounds(extendColumn(image, cut));
    expect(y1).toBeGreaterThanOrEqual(glyphTop(5) + GLYPH);
    expect(y1).toBeLessThan(glyphTop(5) + GLYPH + GAP);
    expect(y0).toBeCloseTo(TOP - 5, 5);
  });

  it('takes in a first character the box leaves out', () => {
    const image = panel(6);
    const { y0 } = quadBounds(extendColumn(image, column(glyphTop(1) - 5, glyphTop(5) + GLYPH + 5)));
    expect(y0).toBeLessThanOrEqual(TOP);
    expect(y0).toBeGreaterThan(TOP - GAP);
  });

  it('takes in a stencilled last character the box leaves out: its halves count as one', () => {
    // Bridges 6 px tall in a 50 px column: wider than reading cuts characters at, and with each
    // half counted as a character the gaps between characters looked too wide to join.
    const image = panel(6, [], 6);
    const { y1 } = quadBounds(extendColumn(image, column(TOP - 5, glyphTop(4) + GLYPH + 5)));
    expect(y1).toBeGreaterThanOrEqual(glyphTop(5) + GLYPH);
    expect(y1).toBeLessThan(glyphTop(5) + GLYPH + GAP);
  });

  it('leaves a box around the whole column as it is', () => {
    const whole = column(TOP - 5, glyphTop(5) + GLYPH + 5);
    expect(extendColumn(panel(6), whole)).toEqual(whole);
  });

  it('does not take in a word under the column: it is wider than the column', () => {
    const word = { x0: 60, y0: glyphTop(6), x1: 240, y1: glyphTop(6) + GLYPH };
    const box = column(TOP - 5, glyphTop(5) + GLYPH + 5);
    expect(extendColumn(panel(6, [word]), box)).toEqual(box);
  });

  it('takes in a last character with a smudge and rivets beside it: they are no word', () => {
    // A flat smudge touching the character from the left and a rivet at each side: ink in the
    // margins, but nothing there stands as tall as a character.
    const last = glyphTop(5);
    const smudge = { x0: 60, y0: last + 14, x1: LEFT + 2, y1: last + 26 };
    const rivets = [95, 200].map((x) => ({ x0: x, y0: last + 30, x1: x + 5, y1: last + 35 }));
    const { y1 } = quadBounds(extendColumn(panel(6, [smudge, ...rivets]), column(TOP - 5, glyphTop(4) + GLYPH + 5)));
    expect(y1).toBeGreaterThanOrEqual(last + GLYPH);
    expect(y1).toBeLessThan(last + GLYPH + GAP);
  });

  it('keeps out a character set further apart than the column\'s own (a check digit boxed alone)', () => {
    const apart = { x0: LEFT, y0: glyphTop(5) + GLYPH + 35, x1: RIGHT, y1: glyphTop(5) + 2 * GLYPH + 35 };
    const box = column(TOP - 5, glyphTop(5) + GLYPH + 5);
    expect(extendColumn(panel(6, [apart]), box)).toEqual(box);
  });

  it('takes in a pale last character on a patch of dirt past the box: the column\'s own pixels say what its ink is', () => {
    // Pale paint on a light panel, and past the box's end a dark patch under the last character:
    // over the whole look the patch, not the paint, stands apart from the panel.
    const last = glyphTop(5);
    const dirt = { x0: 95, y0: last - 10, x1: 205, y1: last + GLYPH + 10, grey: 110 };
    const image = panel(6, [], 0, { ground: 200, ink: 245, patches: [dirt] });
    const { y1 } = quadBounds(extendColumn(image, column(TOP - 5, glyphTop(4) + GLYPH + 5)));
    expect(y1).toBeGreaterThanOrEqual(last + GLYPH);
    expect(y1).toBeLessThan(last + GLYPH + GAP);
  });

  it('leaves a line that is not tall as it is', () => {
    const line = box(100, 100, 200, 50);
    expect(extendColumn(panel(6), line)).toEqual(line);
  });
});
