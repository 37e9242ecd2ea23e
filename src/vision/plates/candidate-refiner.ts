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

/** Detects text again in a close-up of the candidate, from full-resolution pixels: the first
 * pass saw small plates at half scale or less, so its boxes are loose and may join the plate
 * number with the frame's dealer text. Returns the close-up's plate-like lines (in image
 * pixels) that lie within the candidate, or the candidate itself when none does. */
export async function refineCandidate(image: RawImage, candidate: PlateCandidate, detector: TextDetector): Promise<PlateCandidate[]> {
  const b = quadBounds(candidate.lines.flat());
  const w = b.x1 - b.x0;
  const h = b.y1 - b.y0;
  const lineHeight = h / candidate.lines.length;
  // The detector boxes no text cut off at the close-up's side: a close-up that finds nothing at
  // all is looked at once more with a character's width beside the candidate (the first pass
  // may have stopped a character short of the number's end).
  let texts = await closeUpTexts(image, b, lineHeight, CLOSEUP_MARGIN_X, detector);
  if (texts?.length === 0) texts = await closeUpTexts(image, b, lineHeight, WIDE_MARGIN_X, detector);
  if (!texts) return [candidate];
  const inside = texts.filter((t) => {
    const { x, y } = quadCentre(t.quad);
    return x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1;
  });
  const refined = findPlateCandidates(inside, 4);
  if (refined.length === 0) return [candidate];
  // The close-up judges the shape; the first pass's confidence stays the detection score.
  return refined.map((r) => ({ lines: r.lines, dscore: Math.min(candidate.dscore, r.dscore), closeUp: true }));
}

/** Text found in a close-up of `b` with `marginX` of its width on either side (in image
 * pixels); null when the close-up would be too small to look at. */
async function closeUpTexts(image: RawImage, b: { x0: number; y0: number; x1: number; y1: number }, lineHeight: number, marginX: number, detector: TextDetector): Promise<DetectedText[] | null> {
  const w = b.x1 - b.x0;
  const h = b.y1 - b.y0;
  const x = Math.max(0, b.x0 - marginX * w);
  const y = Math.max(0, b.y0 - 0.25 * h);
  const cw = Math.min(image.width - x, w * (1 + 2 * marginX));
  const ch = Math.min(image.height - y, h * 1.5);
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
