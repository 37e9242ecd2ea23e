import { type Component, componentBoxes } from '../image/components.js';
import type { RawImage } from '../image/decode.js';
import { colourDistance, meanInkColour, medianColour } from '../image/ink-colour.js';
import { lengthenQuad, type Quad, quadSize, widenQuad } from '../image/quad.js';
import { warpQuad } from '../image/warp.js';
import { medianOf } from './readers/char-spacing.js';
import { inkMask, rowsOfInk } from './vertical-text.js';

/** How far past a column's ends its characters are looked for, in column widths (about a
 * character's height and a gap). */
const REACH = 1.6;
/** The look's margin beside the column, in column widths: ink that reaches into its outer half
 * is wider than the column (a word below it, a rivet line or a seam across the panel). */
const SIDE = 0.5;
/** A character past the end joins the column when the gap to the column's nearest one is at
 * most this part of a character's height, and at most GAP_SPREAD times the column's own gaps
 * (a container code's owner letters, serial and check digit stand further apart than their
 * characters, and the detector often boxes each group alone: they stay apart), and its own
 * height is within HEIGHTS of theirs. */
const MAX_GAP = 1;
const GAP_SPREAD = 1.5;
const HEIGHTS: readonly [number, number] = [0.6, 1.4];
/** Heights, in the row's, of a shape beside a row that makes it part of something wider: a
 * letter of a word or a bar stands about as tall; a seam along the column is taller. */
const BESIDE: readonly [number, number] = [0.6, 1.6];
/** Largest distance between the mean colours (RGB) of a column's ink and a character's beyond it. */
const SAME_INK = 45;
/** The widest gap inside a character here, in column widths: wider than where the rows are
 * cut into characters to read (vertical-text.ts), so a stencil whose bridges stand a little
 * wider still counts whole characters, not halves, and its gaps and heights compare with the
 * characters beyond. Nothing is read from these rows; two characters never merge (no glyph
 * stands taller than vertical-text.ts allows). */
const WIDE_BRIDGE = 0.15;
/** The column's own threshold is taken where it grows the box at least this much further than
 * the whole look's, in column widths (about half a character): less is the same characters cut
 * a pixel otherwise, and a stack's reading can turn on a pixel of its cut. */
const FURTHER = 0.5;
/** Looks past the ends, each reaching about a character further. */
const MAX_STEPS = 3;
/** Margin kept beyond the outermost character, in character heights. */
const PAD = 0.2;

/**
 * A column of stacked characters (a trailer's fleet number painted top to bottom) whose text box
 * stops short of its first or last character, or cuts one in half (the detector's box often
 * does, on a character beside a rivet line or in a fainter paint), grown along its own axis to
 * take in the characters of the same size beyond it. Without them the stack reads a character
 * short, or reads the half as another character. Other boxes are returned as they are.
 */
export function extendColumn(image: RawImage, quad: Quad): Quad {
  let q = quad;
  for (let k = 0; k < MAX_STEPS; k++) {
    const next = extendOnce(image, q);
    if (next === q) break;
    q = next;
  }
  return q;
}

/** One look past each end (a character's reach): the box grown, or the same box. Its ink is
 * thresholded twice: over the whole look, and at the threshold the column's own pixels set. Dirt
 * or a shadow past an end can take the whole look's threshold for itself, and a pale character
 * on it is then no ink; the column's threshold, though, can take such a patch for ink where the
 * characters are pale relief on a pale panel, whose ink is their shading. The column's is taken
 * where it reaches at least FURTHER further, else the whole look's. */
function extendOnce(image: RawImage, quad: Quad): Quad {
  const { width: w, height: h } = quadSize(quad);
  if (w < 6 || h < 2 * w) return quad;
  const reach = Math.round(REACH * w);
  const side = Math.round(SIDE * w);
  const lw = Math.round(w) + 2 * side;
  const lh = Math.round(h) + 2 * reach;
  const look = warpQuad(image, lengthenQuad(widenQuad(quad, side / h, side / h), reach, reach), lw, lh);
  const byLook = grownAlong(quad, look, inkMask(look), side, reach);
  const byColumn = grownAlong(quad, look, inkMask(look, { x0: side, y0: reach, x1: lw - side, y1: lh - reach }), side, reach);
  return quadSize(byColumn).height >= quadSize(byLook).height + FURTHER * w ? byColumn : byLook;
}

/** `quad` grown to the characters `ink` shows past its ends in `look`: the box widened by `side`
 * and lengthened by `reach` at each end, warped upright. The same box where none joins. */
function grownAlong(quad: Quad, look: RawImage, ink: Uint8Array, side: number, reach: number): Quad {
  const { width: lw, height: lh } = look;
  const colW = lw - 2 * side;
  const strip = new Uint8Array(colW * lh);
  for (let y = 0; y < lh; y++) strip.set(ink.subarray(y * lw + side, y * lw + side + colW), y * colW);
  const rows = rowsOfInk(strip, colW, lh, WIDE_BRIDGE);
  const top = reach;
  const bottom = lh - reach;
  const inside = rows.filter(([a, b]) => a >= top && b <= bottom);
  if (inside.length < 2) return quad;
  const charH = medianOf(inside.map(([a, b]) => b - a));
  const charSized = ([a, b]: [number, number]) => b - a >= HEIGHTS[0] * charH && b - a <= HEIGHTS[1] * charH;
  const outer = Math.ceil(side / 2);
  const beside = besideShapes(ink, lw, lh, outer);
  // A shape in the outer half of either margin about as tall as the row, beside it: the row is
  // part of something wider than the column (a word's letter beside it, a bar across).
  // Specks, rivets and flat smudges beside a character do not count.
  const spills = ([a, b]: [number, number]) => beside.some((c) => {
    const tall = c.y1 - c.y0;
    const overlap = Math.min(c.y1, b) - Math.max(c.y0, a);
    return overlap >= 0.5 * Math.min(tall, b - a) && tall >= BESIDE[0] * (b - a) && tall <= BESIDE[1] * (b - a);
  });
  // A column is painted in one ink, a sticker or a logo beside it in another.
  const colourOf = ([a, b]: [number, number]) => meanInkColour(look, ink, { x0: side, y0: a, x1: side + colW, y1: b });
  const own = medianColour(inside.map(colourOf));
  const sameInk = (r: [number, number]) => colourDistance(colourOf(r), own) <= SAME_INK;
  const joins = (r: [number, number]) => charSized(r) && !spills(r) && sameInk(r);
  const sorted = [...inside].sort((p, q) => p[0] - q[0]);
  const ownGap = medianOf(sorted.slice(1).map((r, i) => r[0] - sorted[i]![1]));
  const maxGap = Math.min(MAX_GAP * charH, GAP_SPREAD * ownGap + 0.1 * charH);
  // Downwards: a character the box's end cuts, then each one within the gap of the last.
  let end = Math.max(...inside.map(([, b]) => b));
  for (const r of rows.filter(([a, b]) => a < bottom && b > bottom && a >= top)) if (joins(r)) end = Math.max(end, r[1]);
  for (const r of rows.filter(([a]) => a >= end).sort((p, q) => p[0] - q[0])) {
    if (r[0] - end > maxGap || !joins(r)) break;
    end = r[1];
  }
  let start = Math.min(...inside.map(([a]) => a));
  for (const r of rows.filter(([a, b]) => a < top && b > top && b <= bottom)) if (joins(r)) start = Math.min(start, r[0]);
  for (const r of rows.filter(([, b]) => b <= start).sort((p, q) => q[1] - p[1])) {
    if (start - r[1] > maxGap || !joins(r)) break;
    start = r[0];
  }
  const grow = (by: number) => Math.max(0, by + PAD * charH);
  const above = start < top ? grow(top - start) : 0;
  const below = end > bottom ? grow(end - bottom) : 0;
  return above > 0 || below > 0 ? lengthenQuad(quad, above, below) : quad;
}

/** The connected shapes of ink in the outer `outer` columns at either side of a look `lw` wide:
 * cut off from the column, so a smudge touching a character is measured alone. */
function besideShapes(ink: Uint8Array, lw: number, lh: number, outer: number): Component[] {
  const edges = new Uint8Array(ink.length);
  for (let y = 0; y < lh; y++) {
    const row = y * lw;
    edges.set(ink.subarray(row, row + outer), row);
    edges.set(ink.subarray(row + lw - outer, row + lw), row + lw - outer);
  }
  return componentBoxes(edges, lw, lh, 8);
}
