import type { RawImage } from '../image/decode.js';
import { quadBounds, quadCentre } from '../image/quad.js';
import { cropRect } from '../image/warp.js';
import { findPlateCandidates, type DetectedText } from './candidate-finder.js';
import { detectionView } from './detection-view.js';
import type { PlateCandidate, Quad } from './plate.types.js';

export interface TextDetector {
  detect(image: RawImage, options?: { detLimitSide?: number; boxThreshold?: number }): Promise<DetectedText[]>;
}

/** Text height the detector sees in the close-up: large enough that the plate's characters
 * separate from the frame text and the box hugs them. */
const CLOSEUP_TEXT_HEIGHT = 36;
const CLOSEUP_MAX_SIDE = 640;
/** Margin of the close-up beside the candidate, in candidate widths (each side), and the wider
 * one of the second close-up (see refineCandidate). */
const CLOSEUP_MARGIN_X = 0.15;
const WIDE_MARGIN_X = 0.3;
/** Margin above and below the candidate, in its heights; the second close-up's when it looks for
 * the whole line (see RefineOptions). */
const CLOSEUP_MARGIN_Y = 0.25;
const WHOLE_LINE_MARGIN_Y = 0.5;
/** ... and beside it, in line heights: a plate's number is a few line heights wide, so this much
 * on either side holds the rest of it wherever the part the candidate boxed lies. */
const WHOLE_LINE_MARGIN_X = 3;

export interface RefineOptions {
  /** The second close-up (the first found no text) looks for the whole line the candidate may be
   * part of: room for a whole number on every side, and lines that overlap the candidate count
   * as its own. For a pass that sees small plates at too low a resolution to box them whole and
   * has no finer pass to make up for it: its box of such a plate may hold a few characters,
   * whose close-up cuts the rest at its sides and top (the detector boxes no text cut off). */
  wholeLine?: boolean;
  /** The candidate is a plate detector's box: scale the close-up to the characters such a box
   * holds (PLATE_TEXT_SHARE of its height) rather than to the whole box. */
  plateText?: boolean;
}

/** About how much of a plate detector's box the characters' height fills: half a US plate's
 * height (2.75 of 6 inches), less in a loose box, more on a European plate. A close-up scaled
 * to the whole box shows a squarish plate boxed with its surround with characters too small for
 * the text detector, which then finds only the state's name or nothing. */
const PLATE_TEXT_SHARE = 0.5;

/** Detects text again in a close-up of the candidate, from full-resolution pixels: the first
 * pass saw small plates at half scale or less, so its boxes are loose and may join the plate
 * number with the frame's dealer text. Returns the close-up's plate-like lines (in image
 * pixels) that lie within the candidate, or the candidate itself when none does. */
export async function refineCandidate(image: RawImage, candidate: PlateCandidate, detector: TextDetector, options: RefineOptions = {}): Promise<PlateCandidate[]> {
  const b = quadBounds(candidate.lines.flat());
  const w = b.x1 - b.x0;
  const h = b.y1 - b.y0;
  const lineHeight = candidate.wholePlate && options.plateText ? h * PLATE_TEXT_SHARE : h / candidate.lines.length;
  // The detector boxes no text cut off at the close-up's side: a close-up that finds nothing at
  // all is looked at once more with a character's width beside the candidate (the first pass
  // may have stopped a character short of the number's end), or room for the whole line.
  let texts = await closeUpTexts(image, b, lineHeight, { x: CLOSEUP_MARGIN_X, y: CLOSEUP_MARGIN_Y }, detector);
  let wholeLine = false;
  if (texts?.length === 0) {
    wholeLine = !!options.wholeLine;
    const margin = wholeLine
      ? { x: Math.max(WIDE_MARGIN_X, (WHOLE_LINE_MARGIN_X * lineHeight) / Math.max(1, w)), y: WHOLE_LINE_MARGIN_Y }
      : { x: WIDE_MARGIN_X, y: CLOSEUP_MARGIN_Y };
    texts = await closeUpTexts(image, b, lineHeight, margin, detector);
  }
  if (!texts) return [candidate];
  const inside = texts.filter((t) => {
    const { x, y } = quadCentre(t.quad);
    if (y < b.y0 || y > b.y1) return false;
    if (!wholeLine) return x >= b.x0 && x <= b.x1;
    const q = quadBounds(t.quad);
    return q.x0 < b.x1 && q.x1 > b.x0;
  });
  const refined = findPlateCandidates(inside, 4);
  if (refined.length === 0) return [candidate];
  // The close-up judges the shape; the first pass's confidence stays the detection score.
  return refined.map((r) => ({ lines: r.lines, dscore: Math.min(candidate.dscore, r.dscore), closeUp: true, plateAspect: candidate.plateAspect }));
}

/** Text found in a close-up of `b` with `margin.x` of its width on either side and `margin.y` of
 * its height above and below (in image pixels); null when the close-up would be too small to
 * look at. */
async function closeUpTexts(image: RawImage, b: { x0: number; y0: number; x1: number; y1: number }, lineHeight: number, margin: { x: number; y: number }, detector: TextDetector): Promise<DetectedText[] | null> {
  const w = b.x1 - b.x0;
  const h = b.y1 - b.y0;
  // Whole pixels: the crop starts there (cropRect floors it), and the boxes found in it are
  // placed back from there.
  const x = Math.max(0, Math.floor(b.x0 - margin.x * w));
  const y = Math.max(0, Math.floor(b.y0 - margin.y * h));
  const cw = Math.min(image.width - x, w * (1 + 2 * margin.x));
  const ch = Math.min(image.height - y, h * (1 + 2 * margin.y));
  if (cw < 4 || ch < 4) return null;
  const crop = cropRect(image, x, y, cw, ch);
  // The DB box is unclipped around the glyphs: the text itself is about 2/3 of its height.
  const scale = CLOSEUP_TEXT_HEIGHT / Math.max(4, lineHeight * 0.67);
  const side = Math.min(CLOSEUP_MAX_SIDE, Math.max(64, Math.max(crop.width, crop.height) * scale));
  const view = await detectionView(crop, side, 8);
  const found = await detector.detect(view.image, { detLimitSide: side, boxThreshold: 0.5 });
  return found.map((t) => ({
    score: t.score,
    quad: t.quad.map((p) => ({ x: x + p.x * view.scaleX, y: y + p.y * view.scaleY })) as Quad,
  }));
}
