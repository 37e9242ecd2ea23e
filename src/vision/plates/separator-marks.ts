import type { RawImage } from '../image/decode.js';
import { medianOf } from '../ocr/readers/char-spacing.js';
import { type Glyph, inkBlobs } from './small-print.js';

/** Ink between these parts of the characters' height is a mark, not a character: a separator
 * dot or dash is a third of it or less, while every plate character is drawn at full height. */
const MARK_MAX = 0.5;
const MARK_MIN = 0.1;

/** Which characters of a read line stand where the ink is only a separator mark: a dot or a dash
 * between character groups, centred on the characters' middle and well under their height, with
 * no character-high ink in the same columns. Read with plate characters only, the recogniser
 * takes such a mark for one (a dot for an O, a dash for an I or L). `spans`: the crop columns
 * where the recogniser saw each character. */
export function separatorMarks(crop: RawImage, spans: ReadonlyArray<{ x0: number; x1: number }> | undefined): boolean[] {
  if (!spans || spans.length === 0) return [];
  // Dark ink only: in bold type in a tight crop the characters outweigh the ground, the rarer
  // class is the ground between them, and a character's hole (a D's) would look like a mark.
  // Light characters on a dark plate leave no character-like blobs and no marks.
  const blobs = inkBlobs(crop, { darkInk: true });
  // The characters: tall blobs no wider than tall, clear of the crop's top and bottom (a
  // character cut there, or a frame's edge, has no height to measure). Unless about half the
  // characters read stand as such blobs, the ink is too joined or broken up to judge.
  const chars = blobs.filter((b) => b.y1 - b.y0 >= 0.4 * crop.height && b.x1 - b.x0 <= b.y1 - b.y0
    && b.y0 > 0 && b.y1 < crop.height);
  if (chars.length < Math.max(3, spans.length / 2)) return spans.map(() => false);
  const charHeight = medianOf(chars.map((b) => b.y1 - b.y0));
  const middle = medianOf(chars.map((b) => (b.y0 + b.y1) / 2));
  const centre = (b: Glyph) => (b.y0 + b.y1) / 2;
  const mark = (b: Glyph) => {
    const bh = b.y1 - b.y0;
    return bh >= MARK_MIN * charHeight && bh <= MARK_MAX * charHeight && Math.abs(centre(b) - middle) <= 0.25 * charHeight;
  };
  return spans.map(({ x0, x1 }) => {
    // The ink in the character's columns and on the characters' band (not a frame's edge or a
    // band along the line, wider than a character, nor print above or below) must all be the
    // mark: a character broken up at a small size (a Z's bars and diagonal, an X's arms) has
    // pieces above and below the middle.
    const under = blobs.filter((b) => b.x1 > x0 && b.x0 < x1 && b.x1 - b.x0 <= charHeight && Math.abs(centre(b) - middle) <= 0.5 * charHeight);
    return under.length > 0 && under.every(mark);
  });
}
