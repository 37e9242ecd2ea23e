import type { RawImage } from '../../image/decode.js';
import { padQuad, type Quad } from '../../image/quad.js';
import type { OcrEngine } from '../ocr-engine.js';
import type { TextLine } from '../ocr.types.js';
import { placed, type Placed, rectQuad } from './line-geometry.js';
import { readRow } from './row-reread.js';

/** How far apart two halves of one row may stand, as a share of the shorter half's height: a
 * stencil's bridge is a few percent of a character's height, the space between two painted
 * lines a quarter of one or more. */
const MAX_GAP = 0.25;

/** How far the lower half's box may reach up into the upper's, as a share of the shorter one's
 * height: halves boxed loosely overlap a little, while two boxes over one whole line overlap
 * nearly all the way and are another matter. */
const MAX_INTRUSION = 0.75;

/** How much of the wider half the narrower must span: the halves of one row hold the same
 * characters, so they start and end together (a fleet name painted under the number is
 * narrower or wider than it). */
const MIN_OVERLAP = 0.75;

/** A line read this surely is a line of its own, not half of one: a half holds a part of each
 * glyph, which reads as nonsense (`51OO` at 0.56 over `2TJJ` at 0.36), while a fleet name
 * painted right under the number, as wide, reads surely (`CARRIER 53` at 0.97). */
const SURE = 0.9;

/** Above and below a joined row read again, in its height. */
const ROW_PAD = 0.1;

/** A stencilled number's bridges cross every glyph at one height, and the text detector can box
 * the glyphs' upper and lower parts as two lines, each read as nonsense (2499 as `51OO` over
 * `2TJJ`). Where two flat lines read unsurely lie one directly on the other, over the same
 * columns and with hardly a gap, the row they make together is read again whole; each such row
 * comes back as a line of its own beside the halves, for the type's grammar to weigh. */
export async function joinedHalves(engine: Pick<OcrEngine, 'recognizeCrops'>, image: RawImage, lines: readonly Placed[]): Promise<Placed[]> {
  const out: TextLine[] = [];
  for (const [upper, lower] of stackedPairs(lines)) {
    const x = Math.min(upper.x, lower.x);
    const row: Quad = padQuad(rectQuad({ x, y: upper.y, w: Math.max(upper.x + upper.w, lower.x + lower.w) - x, h: lower.y + lower.h - upper.y }), 0, ROW_PAD);
    const read = await readRow(engine, image, row);
    if (read && read.text.length > 0) out.push({ ...read, box: row, orientation: 'horizontal', layout: 'upright' });
  }
  return placed(out);
}

/** Pairs of flat lines read unsurely, the upper first, that could be the halves of one row (see
 * joinedHalves). */
export function stackedPairs(lines: readonly Placed[]): Array<[Placed, Placed]> {
  const flat = lines.filter((p) => p.line.orientation === 'horizontal' && p.line.layout === 'upright' && p.line.confidence < SURE);
  const pairs: Array<[Placed, Placed]> = [];
  for (const upper of flat) {
    for (const lower of flat) {
      if (upper === lower || lower.y <= upper.y) continue;
      const gap = lower.y - (upper.y + upper.h);
      const shorter = Math.min(upper.h, lower.h);
      const overlap = Math.min(upper.x + upper.w, lower.x + lower.w) - Math.max(upper.x, lower.x);
      if (gap > MAX_GAP * shorter || gap < -MAX_INTRUSION * shorter) continue;
      if (overlap < MIN_OVERLAP * Math.max(upper.w, lower.w)) continue;
      pairs.push([upper, lower]);
    }
  }
  return pairs;
}
