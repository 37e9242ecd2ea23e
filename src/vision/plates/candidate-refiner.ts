import type { RawImage } from '../image/decode.js';
import { quadAxis, quadBounds, quadCentre, quadSize } from '../image/quad.js';
import { estimateSkew, MAX_SKEW_DEGREES } from '../image/skew.js';
import { cropRect, type Point, warpQuad } from '../image/warp.js';
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

/** A candidate this tilted or more (radians; 5 degrees) is looked at along its own axis: the
 * close-up is cut turned upright, as the text detector and the rules after it (lines joined on a
 * level baseline, a box's line height) expect. Under it the close-up is the photo's own pixels,
 * as before: a plate a few degrees off reads as well either way (on the fit halves' photos as
 * they are, fast mode, 10 of 214 detector boxes come out at 4 degrees and 14 at 5 to 10: cars on
 * a slope, cameras askew). */
const TILTED_FROM = (5 * Math.PI) / 180;
/** ... and at most this tilted (the steepest slope estimateSkew looks for): a text line steeper
 * than that is a column or a sign, not a plate photographed crooked. */
const MAX_TILT = (MAX_SKEW_DEGREES * Math.PI) / 180;

/** The part of the photo a close-up is cut from, in coordinates of its own: the upright photo's
 * where the candidate stands level, else the candidate's own axis with its centre at 0, 0. */
interface CloseUpFrame {
  /** The candidate's extent in frame coordinates. */
  bounds: { x0: number; y0: number; x1: number; y1: number };
  /** The height the candidate's characters are taken to have (image pixels). */
  lineHeight: number;
  /** Text found in a close-up of the bounds with `margin` of their width on either side and of
   * their height above and below, in frame coordinates; null when too small to look at. */
  look(margin: { x: number; y: number }): Promise<DetectedText[] | null>;
  toImage(p: Point): Point;
}

/** Detects text again in a close-up of the candidate, from full-resolution pixels: the first
 * pass saw small plates at half scale or less, so its boxes are loose and may join the plate
 * number with the frame's dealer text. A tilted candidate (TILTED_FROM: a text line's slope, or
 * for a plate detector's upright box the slope its pixels show, estimateSkew) gets its close-up
 * turned upright. Returns the close-up's plate-like lines (in image pixels) that lie within the
 * candidate, or the candidate itself when none does. */
export async function refineCandidate(image: RawImage, candidate: PlateCandidate, detector: TextDetector, options: RefineOptions = {}): Promise<PlateCandidate[]> {
  const tilt = candidateTilt(image, candidate);
  const level = Math.abs(tilt) < TILTED_FROM || Math.abs(tilt) > MAX_TILT;
  const frame = level ? uprightFrame(image, candidate, detector, options) : tiltedFrame(image, candidate, detector, options, tilt);
  const b = frame.bounds;
  const w = b.x1 - b.x0;
  const { lineHeight } = frame;
  // The detector boxes no text cut off at the close-up's side: a close-up that finds nothing at
  // all is looked at once more with a character's width beside the candidate (the first pass
  // may have stopped a character short of the number's end), or room for the whole line.
  let texts = await frame.look({ x: CLOSEUP_MARGIN_X, y: CLOSEUP_MARGIN_Y });
  let wholeLine = false;
  if (texts?.length === 0) {
    wholeLine = !!options.wholeLine;
    const margin = wholeLine
      ? { x: Math.max(WIDE_MARGIN_X, (WHOLE_LINE_MARGIN_X * lineHeight) / Math.max(1, w)), y: WHOLE_LINE_MARGIN_Y }
      : { x: WIDE_MARGIN_X, y: CLOSEUP_MARGIN_Y };
    texts = await frame.look(margin);
  }
  if (!texts) return [candidate];
  const inside = texts.filter((t) => {
    const { x, y } = quadCentre(t.quad);
    if (y < b.y0 || y > b.y1) return false;
    if (!wholeLine) return x >= b.x0 && x <= b.x1;
    const q = quadBounds(t.quad);
    return q.x0 < b.x1 && q.x1 > b.x0;
  });
  // Lines are joined and ranked in the frame, where they stand level.
  const refined = findPlateCandidates(inside, 4);
  if (refined.length === 0) return [candidate];
  // The close-up judges the shape; the first pass's confidence stays the detection score.
  return refined.map((r) => ({
    lines: r.lines.map((l) => l.map(frame.toImage) as Quad), dscore: Math.min(candidate.dscore, r.dscore), closeUp: true, plateAspect: candidate.plateAspect,
  }));
}

/** Around a plate detector's box, the skew is looked for this far beyond it (shares of its width
 * and height): the box of a tilted plate, trained on level ones, often stops short of its ends. */
const SKEW_REACH_X = 0.2;
const SKEW_REACH_Y = 0.4;

/** The candidate's slope (radians, positive where its right end lies lower): a one-line text
 * candidate's own, a plate detector's box the one its pixels show; 0 for other candidates (two
 * lines, or lines joined into an upright box). */
function candidateTilt(image: RawImage, candidate: PlateCandidate): number {
  if (candidate.lines.length !== 1) return 0;
  if (candidate.wholePlate) {
    const b = quadBounds(candidate.lines[0]!);
    const w = b.x1 - b.x0;
    const h = b.y1 - b.y0;
    return estimateSkew(image, { x0: b.x0 - SKEW_REACH_X * w, x1: b.x1 + SKEW_REACH_X * w, y0: b.y0 - SKEW_REACH_Y * h, y1: b.y1 + SKEW_REACH_Y * h });
  }
  const axis = quadAxis(candidate.lines[0]!);
  return Math.atan2(axis.y, axis.x);
}

/** The height of the characters a candidate holds, from its box's height `h`. */
function lineHeightOf(candidate: PlateCandidate, h: number, options: RefineOptions): number {
  return candidate.wholePlate && options.plateText ? h * PLATE_TEXT_SHARE : h / candidate.lines.length;
}

/** A level candidate's close-up: the photo's own pixels around its upright bounds. */
function uprightFrame(image: RawImage, candidate: PlateCandidate, detector: TextDetector, options: RefineOptions): CloseUpFrame {
  const bounds = quadBounds(candidate.lines.flat());
  const lineHeight = lineHeightOf(candidate, bounds.y1 - bounds.y0, options);
  return { bounds, lineHeight, look: (margin) => closeUpTexts(image, bounds, lineHeight, margin, detector), toImage: (p) => p };
}

/**
 * A tilted candidate's close-up, cut along its axis. A text line's frame is its own box. A plate
 * detector's box is upright around the tilted plate: the frame holds all of it, and the plate's
 * own height (for the close-up's scale) is worked out from the box's width W and height H, which
 * a plate w x h tilted by t fills as W = w cos t + h sin t, H = w sin t + h cos t; kept between a
 * quarter of H and H, since the box is the detector's guess.
 */
function tiltedFrame(image: RawImage, candidate: PlateCandidate, detector: TextDetector, options: RefineOptions, tilt: number): CloseUpFrame {
  const quad = candidate.lines[0]!;
  const centre = quadCentre(quad);
  let width: number;
  let height: number;
  let plateHeight: number;
  if (candidate.wholePlate) {
    const b = quadBounds(quad);
    const W = b.x1 - b.x0;
    const H = b.y1 - b.y0;
    const cos = Math.cos(tilt);
    const sin = Math.abs(Math.sin(tilt));
    width = W * cos + H * sin;
    height = W * sin + H * cos;
    plateHeight = Math.min(H, Math.max(0.25 * H, (H * cos - W * sin) / (cos * cos - sin * sin)));
  } else {
    ({ width, height } = quadSize(quad));
    plateHeight = height;
  }
  const lineHeight = lineHeightOf(candidate, plateHeight, options);
  const axis = { x: Math.cos(tilt), y: Math.sin(tilt) };
  const toImage = (p: Point): Point => ({ x: centre.x + p.x * axis.x - p.y * axis.y, y: centre.y + p.x * axis.y + p.y * axis.x });
  const bounds = { x0: -width / 2, y0: -height / 2, x1: width / 2, y1: height / 2 };
  return {
    bounds,
    lineHeight,
    async look(margin) {
      const cw = width * (1 + 2 * margin.x);
      const ch = height * (1 + 2 * margin.y);
      if (cw < 4 || ch < 4) return null;
      const corners = [[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]] as const;
      const turned = warpQuad(image, corners.map(([x, y]) => toImage({ x, y })) as Quad, Math.max(4, Math.round(cw)), Math.max(4, Math.round(ch)));
      const found = await detectInCloseUp(turned, lineHeight, detector);
      const sx = cw / turned.width;
      const sy = ch / turned.height;
      return found.map((t) => ({ score: t.score, quad: t.quad.map((p) => ({ x: p.x * sx - cw / 2, y: p.y * sy - ch / 2 })) as Quad }));
    },
    toImage,
  };
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
  const found = await detectInCloseUp(cropRect(image, x, y, cw, ch), lineHeight, detector);
  return found.map((t) => ({ score: t.score, quad: t.quad.map((p) => ({ x: x + p.x, y: y + p.y })) as Quad }));
}

/** The text detector's lines in a close-up, in its pixels: seen at a scale that makes lines of
 * `lineHeight` about CLOSEUP_TEXT_HEIGHT tall. */
async function detectInCloseUp(crop: RawImage, lineHeight: number, detector: TextDetector): Promise<DetectedText[]> {
  // The DB box is unclipped around the glyphs: the text itself is about 2/3 of its height.
  const scale = CLOSEUP_TEXT_HEIGHT / Math.max(4, lineHeight * 0.67);
  const side = Math.min(CLOSEUP_MAX_SIDE, Math.max(64, Math.max(crop.width, crop.height) * scale));
  const view = await detectionView(crop, side, 8);
  const found = await detector.detect(view.image, { detLimitSide: side, boxThreshold: 0.5 });
  return found.map((t) => ({ score: t.score, quad: t.quad.map((p) => ({ x: p.x * view.scaleX, y: p.y * view.scaleY })) as Quad }));
}
