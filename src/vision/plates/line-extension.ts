import type { RawImage } from '../image/decode.js';
import { lengthenQuad, padQuad, quadSize, widenQuad } from '../image/quad.js';
import { colourDistance, meanInkColour, medianColour } from '../image/ink-colour.js';
import { warpQuad } from '../image/warp.js';
import { medianOf } from '../ocr/readers/char-spacing.js';
import { brightestChannel } from './plate-variants.js';
import { type Glyph, inkBlobs, inkMask } from './small-print.js';
import type { PlateCandidate, Quad } from './plate.types.js';

/** How far beside a line its characters are looked for, in line heights. */
const REACH = 2.5;
/** A character beside the line belongs to it when the gap to the line's last character is at
 * most this part of the character height (plates space their groups wider than their
 * characters, but not by more than about a character). */
const MAX_GAP = 1;
/** Plate fonts are condensed: a character is at most about 3/4 as wide as tall; a blob of
 * character height that is wider is a badge or an emblem (a team logo, a wheelchair sign). */
const MAX_WIDTH = 0.75;
/** An emblem is skipped (once per side) when a character follows it: at most this many
 * character heights wide. */
const MAX_EMBLEM = 2;
/** A plate's number is printed in one ink: a blob of character size whose ink differs from the
 * line's characters by more than this (RGB distance of the mean colours) is artwork beside the
 * number (a college logo's letters and mascot), not one of its characters. */
const SAME_INK = 45;
/** Height in pixels of the band a tall line is looked at in (its characters about 40 px tall). */
const BAND_HEIGHT = 48;

/** How many columns of ink that looks like the line's own characters (the same height and
 * baseline, no wider than a character) lie beyond its left and right ends, in `band` pixels;
 * `x0`/`x1` are the line's ends in the band. A chain: each character within MAX_GAP of the last. */
export function inkBeyond(band: RawImage, x0: number, x1: number): { left: number; right: number } {
  // The brightest channel first: a coloured backdrop (a rainbow, a flag) fades there and stops
  // joining the characters; coloured characters fade too, and then the pixels as they are.
  for (const look of [brightestChannel(band), band]) {
    const found = inkBeyondIn(look, band, x0, x1);
    if (found) return found;
  }
  return { left: 0, right: 0 };
}


function inkBeyondIn(band: RawImage, photo: RawImage, x0: number, x1: number): { left: number; right: number } | null {
  const h = band.height;
  const options = { among: { x0, x1 } };
  const ink = inkMask(band, options);
  const all = inkBlobs(band, options, ink);
  const blobs = all.filter((b) => b.y0 > 0 && b.y1 < h);
  const cx = (b: Glyph) => (b.x0 + b.x1) / 2;
  const inside = blobs.filter((b) => cx(b) > x0 && cx(b) < x1 && b.y1 - b.y0 >= 0.4 * h);
  if (inside.length < 2) return null;
  const charHeight = medianOf(inside.map((b) => b.y1 - b.y0));
  const middle = medianOf(inside.map((b) => (b.y0 + b.y1) / 2));
  const charLike = (b: Glyph) => {
    const bh = b.y1 - b.y0;
    return bh >= 0.8 * charHeight && bh <= 1.2 * charHeight && b.x1 - b.x0 <= MAX_WIDTH * charHeight && b.x1 - b.x0 >= 0.08 * charHeight
      && Math.abs((b.y0 + b.y1) / 2 - middle) < 0.2 * charHeight;
  };
  // An emblem between character groups (a bucking horse, a state seal): across the characters'
  // middle, at least their height, wider than a character but not by much.
  const emblem = (b: Glyph) => b.y0 < middle - 0.4 * charHeight && b.y1 > middle + 0.4 * charHeight
    && b.x1 - b.x0 > MAX_WIDTH * charHeight && b.x1 - b.x0 <= MAX_EMBLEM * charHeight;
  // The characters' ink, the median of their colours (worked out only when a blob beside asks).
  let lineInk: number[] | undefined;
  const sameInk = (b: Glyph) => {
    if (photo.channels !== 3) return true;
    const own = (lineInk ??= medianColour(inside.map((i) => meanInkColour(photo, ink, i))));
    return colourDistance(meanInkColour(photo, ink, b), own) <= SAME_INK;
  };
  const chars = blobs.filter((b) => charLike(b) && (inside.includes(b) || sameInk(b)));
  const emblems = all.filter(emblem);
  const gap = MAX_GAP * charHeight;
  // Walks outward from `edge` (dir +1 rightward, -1 leftward): character after character within
  // the gap, stepping over one emblem only when a character follows it.
  const walk = (edge: number, dir: 1 | -1) => {
    const near = (b: Glyph) => (dir > 0 ? b.x0 : b.x1);
    const far = (b: Glyph) => (dir > 0 ? b.x1 : b.x0);
    const next = (from: number, among: readonly Glyph[]) => among
      .filter((b) => dir * (cx(b) - from) > 0 && dir * (near(b) - from) <= gap)
      .sort((a, b) => dir * (near(a) - near(b)))[0];
    let skipped = false;
    for (;;) {
      const char = next(edge, chars);
      if (char) { edge = far(char); continue; }
      const mark = skipped ? undefined : next(edge, emblems);
      const beyond = mark && next(far(mark), chars);
      if (!beyond) return edge;
      skipped = true;
      edge = far(beyond);
    }
  };
  const right = walk(x1, 1);
  const left = walk(x0, -1);
  return { left: x0 - left, right: right - x1 };
}

/** A one-line candidate whose box stops short of characters of the same size beside it (the
 * detector boxes text that fills a plate crop short of its edge, or stops at a dash before a
 * last character) is widened to take them in: the reading without them is no plate number,
 * however well it fits a format. Other candidates are returned as they are. */
export function extendToInk(image: RawImage, candidate: PlateCandidate): PlateCandidate {
  if (candidate.lines.length !== 1) return candidate;
  const q = candidate.lines[0]!;
  const { width: w, height: h } = quadSize(q);
  if (h < 8) return candidate;
  // The band along the line's own axis, so a tilted plate's characters stand upright in it;
  // a tall line is looked at no larger than BAND_HEIGHT, where its characters' blobs are as
  // plain and the band costs a fraction of the pixels.
  const scale = Math.min(1, BAND_HEIGHT / (1.2 * h));
  const band = warpQuad(image, padQuad(widenQuad(q, REACH, REACH), 0, 0.1), Math.round((w + 2 * REACH * h) * scale), Math.round(1.2 * h * scale));
  if (band.width < 8 || band.height < 8) return candidate;
  const { left, right } = inkBeyond(band, REACH * h * scale, (REACH * h + w) * scale);
  if (left <= 0 && right <= 0) return candidate;
  const lines: Quad[] = [widenQuad(q, Math.max(0, left) / (h * scale), Math.max(0, right) / (h * scale))];
  return { ...candidate, lines };
}

/** How far above and below a line its characters are looked for, in line heights: a box that
 * holds half of each character's height leaves the other half within one more. */
const REACH_Y = 1.5;
/** A line's box cuts its characters when their ink goes on past its top or bottom by this much
 * of its height. */
const CUT = 0.2;

/** A one-line candidate whose box holds only part of its characters' height (a close-up's text
 * box around the lower half of a tall, condensed number, which reads as other characters,
 * surely) is grown to the characters' top and bottom: most of the blobs that cross the line
 * go on past the same edge, few of them to the band's edge (a frame, a border). Other
 * candidates are returned as they are. */
export function growToCharacters(image: RawImage, candidate: PlateCandidate): PlateCandidate {
  if (candidate.lines.length !== 1) return candidate;
  const q = candidate.lines[0]!;
  const { width: w, height: h } = quadSize(q);
  if (h < 8) return candidate;
  const scale = Math.min(1, BAND_HEIGHT / h);
  const bandHeight = Math.round((1 + 2 * REACH_Y) * h * scale);
  const band = warpQuad(image, padQuad(q, 0, REACH_Y), Math.round(w * scale), bandHeight);
  if (band.width < 8 || band.height < 8) return candidate;
  const lineTop = REACH_Y * h * scale;
  const lineBottom = (1 + REACH_Y) * h * scale;
  const lineH = lineBottom - lineTop;
  const blobs = inkBlobs(band);
  // Character strokes across the line's rows, no wider than a character of the band's height.
  const crossing = blobs.filter((b) => Math.min(b.y1, lineBottom) - Math.max(b.y0, lineTop) >= 0.3 * lineH
    && b.x1 - b.x0 <= MAX_WIDTH * (b.y1 - b.y0) + 0.1 * lineH && b.x1 - b.x0 >= 0.05 * lineH);
  // A stroke that runs to the band's edge is joined to something else (a frame, a border).
  const clear = crossing.filter((b) => b.y0 > 0 && b.y1 < band.height);
  if (clear.length < 3 || clear.length * 3 < crossing.length * 2) return candidate;
  const past = (d: (b: Glyph) => number) => {
    const out = clear.map(d).filter((v) => v > CUT * lineH);
    return out.length * 2 > clear.length ? medianOf(out) : 0;
  };
  const up = past((b) => lineTop - b.y0);
  const down = past((b) => b.y1 - lineBottom);
  if (up <= 0 && down <= 0) return candidate;
  return { ...candidate, lines: [lengthenQuad(q, up / scale, down / scale)] };
}
