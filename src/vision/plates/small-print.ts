import { type Component, componentBoxes } from '../image/components.js';
import type { RawImage } from '../image/decode.js';
import { cropRect, toGray } from '../image/warp.js';
import { otsuOfHistogram } from '../ocr/vertical-text.js';

/** Bounds of one blob of ink in a line crop, pixels (x1, y1 exclusive). */
export type Glyph = Component;

/** Ink pixels (1) of a crop: the rarer Otsu class (characters cover less of a line than the
 * plate's background does, whichever is darker), or the darker class when `darkInk` says so.
 * `among`: the columns that class and its threshold are taken from (default: all); beyond a
 * plate's edge a car's body can outweigh the plate, and then the plate itself would count as
 * the ink. */
export function inkMask(img: RawImage, options: InkOptions = {}): Uint8Array {
  const gray = toGray(img);
  const { width: w, height: h } = img;
  const { among } = options;
  // The histogram of the sampled columns, read in place.
  const from = among ? Math.max(0, Math.min(w - 1, Math.round(among.x0))) : 0;
  const to = among ? Math.max(from + 1, Math.min(w, Math.round(among.x1))) : w;
  const hist = new Float64Array(256);
  for (let y = 0; y < h; y++) for (let i = y * w + from, end = y * w + to; i < end; i++) hist[gray[i]!]!++;
  const total = (to - from) * h;
  const t = otsuOfHistogram(hist, total);
  let dark = 0;
  for (let v = 0; v <= t; v++) dark += hist[v]!;
  const darkInk = options.darkInk ?? dark < total / 2;
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) ink[i] = (gray[i]! <= t) === darkInk ? 1 : 0;
  return ink;
}

export interface InkOptions { among?: { x0: number; x1: number }; darkInk?: boolean }

/** Connected blobs of ink (4-connected; see `inkMask`); `ink` a mask already made. */
export function inkBlobs(img: RawImage, options: InkOptions = {}, ink = inkMask(img, options)): Glyph[] {
  return componentBoxes(ink, img.width, img.height, 4);
}

type NumberGlyphs = { blobs: Glyph[]; charHeight: number; main: Glyph[] } | null;

/** Each crop's glyphs, found once: a line is cut to its characters' rows (toCharacterRows) and
 * then searched for small print (numberColumns), most often the same crop both times. */
const glyphsOf = new WeakMap<RawImage, NumberGlyphs>();

/** The blobs of a line crop clear of its top and bottom, the height of its characters (the
 * median of the blobs at least 0.4 of the crop tall) and the blobs of about that height (no
 * wider than 1.2 of it); null with fewer than two of either. */
function numberGlyphs(img: RawImage): NumberGlyphs {
  let found = glyphsOf.get(img);
  if (found === undefined) glyphsOf.set(img, (found = findNumberGlyphs(img)));
  return found;
}

function findNumberGlyphs(img: RawImage): NumberGlyphs {
  const h = img.height;
  const blobs = inkBlobs(img).filter((b) => b.y0 > 0 && b.y1 < h);
  const tall = blobs.filter((b) => b.y1 - b.y0 >= 0.4 * h).map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  if (tall.length < 2) return null;
  const charHeight = tall[Math.floor(tall.length / 2)]!;
  const main = blobs.filter((b) => b.y1 - b.y0 >= 0.8 * charHeight && b.y1 - b.y0 <= 1.2 * charHeight && b.x1 - b.x0 <= 1.2 * charHeight);
  if (main.length < 2) return null;
  return { blobs, charHeight, main };
}

/** Small glyphs are at most this part of the number's character height (type codes such as
 * US, HC or RTR are printed at about half its height). */
const SMALL_MAX = 0.62;
const SMALL_MIN = 0.2;
/** Below this character height (crop pixels) blobs are too coarse to tell small print from a
 * broken character. */
const MIN_CHAR_HEIGHT = 24;

/** The columns of a line crop that hold the plate number, when small print (two or more
 * glyphs well under the number's height, stacked or side by side) sits at either end of it:
 * a plate's type code (`US 5555`, `5555 HC`) or a dealer's digits are not part of the number,
 * and the recogniser reads them as one more character. Null when there is none. */
export function numberColumns(img: RawImage): { x0: number; x1: number } | null {
  const found = numberGlyphs(img);
  if (!found || found.charHeight < MIN_CHAR_HEIGHT) return null;
  const { blobs, charHeight, main } = found;
  const left = Math.min(...main.map((b) => b.x0));
  const right = Math.max(...main.map((b) => b.x1));
  const top = Math.min(...main.map((b) => b.y0));
  const bottom = Math.max(...main.map((b) => b.y1));
  const small = blobs.filter((b) => {
    const bh = b.y1 - b.y0;
    return bh >= SMALL_MIN * charHeight && bh <= SMALL_MAX * charHeight && b.x1 - b.x0 <= charHeight && b.y0 >= top - 0.25 * charHeight && b.y1 <= bottom + 0.25 * charHeight;
  });
  // Small print hugs the number: within a character height of its first or last character.
  const before = small.filter((b) => b.x1 <= left + 0.05 * charHeight && left - b.x1 < 0.8 * charHeight);
  const after = small.filter((b) => b.x0 >= right - 0.05 * charHeight && b.x0 - right < 0.8 * charHeight);
  // Only print that stands alone: a tall blob in the same columns (a character joined to a
  // plate's coloured band, a frame) means the small blobs may be parts of something else.
  const clear = (from: number, to: number) => !blobs.some((b) => !main.includes(b) && b.y1 - b.y0 > SMALL_MAX * charHeight && b.x1 > from && b.x0 < to);
  const cutBefore = before.length >= 2 && clear(Math.min(...before.map((b) => b.x0)), left);
  const cutAfter = after.length >= 2 && clear(right, Math.max(...after.map((b) => b.x1)));
  if (!cutBefore && !cutAfter) return null;
  const x0 = cutBefore ? Math.round((Math.max(...before.map((b) => b.x1)) + left) / 2) : 0;
  const x1 = cutAfter ? Math.round((Math.min(...after.map((b) => b.x0)) + right) / 2) : img.width;
  return { x0, x1 };
}

/** Characters of a line crop fill less of its height than this: the detector's box took in
 * artwork above or below them (a tree, mountains), and the recogniser, which shrinks the crop
 * to its input height, reads them smaller and less surely (a Q's short tail read as O). */
const LOOSE_FILL = 0.65;
/** ... and their rows sit within this part of the crop's height of its middle: the box is grown
 * evenly around text, so characters well off its middle are not whole (their lower half washed
 * out by a reflection, which a cut to the dark rows would cut off). */
const CENTRED_WITHIN = 0.1;
/** Margin kept above and below the characters, in character heights. */
const ROW_MARGIN = 0.15;

/** A line crop cut to its characters' rows (with a margin) when they fill too little of its
 * height (see LOOSE_FILL, CENTRED_WITHIN), else the crop itself. */
export function toCharacterRows(img: RawImage): RawImage {
  const found = numberGlyphs(img);
  if (!found) return img;
  const y0 = Math.min(...found.main.map((b) => b.y0));
  const y1 = Math.max(...found.main.map((b) => b.y1));
  const h = img.height;
  if (y1 - y0 >= LOOSE_FILL * h || Math.abs((y0 + y1) / 2 - h / 2) >= CENTRED_WITHIN * h) return img;
  const margin = ROW_MARGIN * (y1 - y0);
  const top = Math.max(0, Math.floor(y0 - margin));
  return cropRect(img, 0, top, img.width, Math.min(h, Math.ceil(y1 + margin)) - top);
}
