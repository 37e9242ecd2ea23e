import type { Box } from './plate.types.js';
import { quadBounds, quadCentre, quadSize } from '../image/quad.js';
import { textBounds } from './plate-box.js';
import type { PlateCandidate, Quad } from './plate.types.js';
import { centreInside } from './plate-surroundings.js';

export interface DetectedText {
  quad: Quad;
  score: number;
}

interface Line {
  quad: Quad;
  score: number;
  cx: number;
  cy: number;
  w: number;
  h: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

function describe(d: DetectedText): Line {
  const { width: w, height: h } = quadSize(d.quad);
  const { x: cx, y: cy } = quadCentre(d.quad);
  return { quad: d.quad, score: d.score, w, h, cx, cy, ...quadBounds(d.quad) };
}

/** Plate text lines are a few characters long: between about 1.3 and 8 times as wide as tall. */
function aspectScore(w: number, h: number): number {
  const r = w / Math.max(1, h);
  if (r < 0.9 || r > 12) return 0;
  if (r < 1.6) return 0.5 + (r - 0.9) / 1.4;
  if (r > 8) return 1 - (r - 8) / 5;
  return 1;
}

/** Text under 7 px is unreadable. Large text is not held back: text that fills most of an
 * image's height makes the image a crop of that text (on a plate crop it is the number, the
 * largest text on a plate), and ranking it below the state name and the stickers lost the
 * number whenever a plate carried more small text than a pass reads candidates. */
function sizeScore(h: number): number {
  if (h < 7) return 0;
  if (h < 12) return 0.6 + ((h - 7) / 5) * 0.4;
  return 1;
}

function boundsQuad(x0: number, y0: number, x1: number, y1: number): Quad {
  return [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];
}

/** Boxes on one line may share up to this part of the narrower one's width: the detector often
 * boxes each character group of a plate together with the emblem between them (a tree, a
 * portrait, an arch), so both boxes hold the emblem's columns. A box mostly inside another is
 * the same text seen twice instead. */
const MAX_SHARED_WIDTH = 0.5;

/** A box narrower than this part of its height is a column: the stacked type code beside a
 * number (`LE`, `HC`, `DP`), not a group of the number's characters. */
const MIN_GROUP_ASPECT = 0.4;

/** Two boxes on one baseline with a small gap: a plate whose characters the detector split
 * (`ABC 1234`, `RK 755 AJ`). */
function sameLine(a: Line, b: Line): boolean {
  const hr = Math.min(a.h, b.h) / Math.max(a.h, b.h);
  const gap = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
  const groups = Math.min(a.w / Math.max(1, a.h), b.w / Math.max(1, b.h)) > MIN_GROUP_ASPECT;
  return groups && hr > 0.7 && Math.abs(a.cy - b.cy) < 0.35 * Math.max(a.h, b.h) && gap < 1.2 * Math.max(a.h, b.h) && gap > -MAX_SHARED_WIDTH * Math.min(a.w, b.w);
}

/** Two lines stacked, overlapping horizontally and close: a two-line plate. */
function stacked(top: Line, bottom: Line): boolean {
  const overlap = Math.min(top.x1, bottom.x1) - Math.max(top.x0, bottom.x0);
  const gap = bottom.y0 - top.y1;
  const hr = Math.min(top.h, bottom.h) / Math.max(top.h, bottom.h);
  return top.cy < bottom.cy && overlap > 0.6 * Math.min(top.w, bottom.w) && gap < 0.6 * Math.max(top.h, bottom.h) && gap > -0.4 * Math.min(top.h, bottom.h) && hr > 0.5;
}

/** Ranks detected text lines by plate-likeness and adds merged candidates for split and
 * two-line plates. Returns at most `limit`, best first. */
export function findPlateCandidates(texts: readonly DetectedText[], limit = Infinity): PlateCandidate[] {
  const lines = texts.map(describe);
  const out: PlateCandidate[] = [];
  for (const l of lines) {
    const like = aspectScore(l.w, l.h) * sizeScore(l.h);
    if (like > 0) out.push({ lines: [l.quad], dscore: l.score * like });
  }
  for (let i = 0; i < lines.length; i++) {
    for (let j = 0; j < lines.length; j++) {
      if (i === j) continue;
      const a = lines[i]!;
      const b = lines[j]!;
      if (a.cx < b.cx && sameLine(a, b)) {
        const x0 = Math.min(a.x0, b.x0), x1 = Math.max(a.x1, b.x1), y0 = Math.min(a.y0, b.y0), y1 = Math.max(a.y1, b.y1);
        const like = aspectScore(x1 - x0, (a.h + b.h) / 2) * sizeScore((a.h + b.h) / 2);
        // Slightly above its parts: a merged reading only wins when the grammar prefers it.
        if (like > 0) out.push({ lines: [boundsQuad(x0, y0, x1, y1)], dscore: Math.min(1, ((a.score + b.score) / 2) * like * 1.02) });
      }
      if (stacked(a, b)) {
        const like = sizeScore(Math.min(a.h, b.h)) * aspectScore((a.w + b.w) / 2, a.h + b.h);
        if (like > 0) out.push({ lines: [a.quad, b.quad], dscore: ((a.score + b.score) / 2) * like * 0.9 });
      }
    }
  }
  return out.sort((x, y) => y.dscore - x.dscore).slice(0, limit);
}

/** A candidate line this tall relative to the image makes the image a crop of a plate (the
 * number fills about half of a plate's height). */
const CROP_LINE_SHARE = 0.25;
/** Whether a text line `lineHeight` tall makes an image `imageHeight` tall a plate crop. */
export function fillsPlateCrop(lineHeight: number, imageHeight: number): boolean {
  return lineHeight >= CROP_LINE_SHARE * imageHeight;
}
/** ... and then lines under this part of its height are the plate's small print. */
const SMALL_PRINT_SHARE = 0.5;

/** On a plate crop (its tallest candidate line fills a quarter of the image height or more),
 * the candidates under half that line's height: the state name, stickers and slogans around the
 * number, never a second plate, so they are not worth a recogniser run. Photos of scenes, where
 * plate lines are a few percent of the image height, keep every candidate. */
export function withoutCropSmallPrint(candidates: readonly PlateCandidate[], imageHeight: number): PlateCandidate[] {
  const height = (c: PlateCandidate) => Math.max(...c.lines.map((q) => quadSize(q).height));
  const tallest = Math.max(0, ...candidates.map(height));
  if (!fillsPlateCrop(tallest, imageHeight)) return [...candidates];
  return candidates.filter((c) => height(c) >= SMALL_PRINT_SHARE * tallest);
}

export interface CandidatePick {
  /** Candidates a pass reads. */
  limit: number;
  /** Lowest plate-likeness kept. */
  minScore: number;
  imageWidth: number;
  imageHeight: number;
  /** Keep a crop's small print (redaction hides every text). */
  keepSmallPrint?: boolean;
  /** Around plates an earlier pass read surely: candidates centred there are not read again, and
   * do not take the places of the photo's other plates. */
  sureAreas?: readonly Box[];
}

/** Whether a candidate's centre lies in one of `areas`. */
function within(c: PlateCandidate, areas: readonly Box[]): boolean {
  const box = textBounds(c.lines);
  return areas.some((a) => centreInside(box, a));
}

/** The candidates a pass reads, best first. A plate crop's small print is left out before
 * the best are taken: a state name, a slogan or a dealer's frame is often boxed more surely and
 * more plate-like in shape than the large number (its box near square when split characters
 * join), and with a few of them the number would not be among the ones read. */
export function candidatesToRead(texts: readonly DetectedText[], pick: CandidatePick): PlateCandidate[] {
  if (texts.length === 0) {
    // The blind band has a plate-likeness like any candidate: a caller's threshold_d above it
    // asks for surer plates than a guess.
    const blind = undetectedCrop(pick.imageWidth, pick.imageHeight);
    return blind && blind.dscore >= pick.minScore ? [blind] : [];
  }
  const all = findPlateCandidates(texts).filter((c) => c.dscore >= pick.minScore);
  const kept = pick.keepSmallPrint ? all : withoutCropSmallPrint(all, pick.imageHeight);
  return kept.filter((c) => !within(c, pick.sureAreas ?? [])).slice(0, pick.limit);
}

/** Plate crops are two (US, 12 x 6 in) to five (EU, 520 x 110 mm) times as wide as tall; a
 * photo of a scene is neither that wide nor, at this size, that small. */
const CROP_ASPECT = { min: 1.8, max: 5 };
const CROP_MAX_WIDTH = 500;
/** The band of a plate crop that holds the number (the state name is above it, a slogan below). */
const NUMBER_BAND = { top: 0.15, bottom: 0.85 };
/** Plate-likeness of that band: above the floor, below any line the detector did box. */
const BLIND_SCORE = 0.3;

/** A plate crop on which the detector boxed no text at all (a blurred or faded number fills
 * the crop, and the detector sees its strokes as one smear): its middle band is the number's
 * line, read as one. Null for an image of another shape or size. */
export function undetectedCrop(width: number, height: number): PlateCandidate | null {
  const aspect = width / Math.max(1, height);
  if (width > CROP_MAX_WIDTH || aspect < CROP_ASPECT.min || aspect > CROP_ASPECT.max) return null;
  const y0 = NUMBER_BAND.top * height;
  const y1 = NUMBER_BAND.bottom * height;
  return { lines: [boundsQuad(0, y0, width, y1)], dscore: BLIND_SCORE };
}
