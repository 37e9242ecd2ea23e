import type { RawImage } from './decode.js';

/** The steepest tilt looked for, in degrees either way: past it a plate is more often
 * something else (a sign, a sticker) than a plate photographed that crooked. */
export const MAX_SKEW_DEGREES = 20;
/** Width the region is looked at in (pixels): enough for a plate's rows of characters and its
 * edges, few enough that the search costs a fraction of a millisecond. */
const SAMPLE_WIDTH = 64;
/** A slope is taken only where its rows score this much more than level ones. */
const CLEARLY_BETTER = 1.05;

export interface SkewRegion { x0: number; y0: number; x1: number; y1: number }

/**
 * The angle (radians; positive where the right end lies lower, y pointing down) at which the
 * rows of a region line up best: a plate's edges and the tops and bottoms of its characters run
 * along the plate, so the horizontal edges, summed along rows of that slope, pile up into a few
 * sharp rows. Whole degrees up to MAX_SKEW_DEGREES either way are tried (the sum of squares of
 * the row profile; every second degree, then the two beside the best) and the best is refined
 * between its neighbours. 0 for a region too small to tell, or one whose rows line up no better
 * at a slope than level.
 */
export function estimateSkew(image: RawImage, region: SkewRegion): number {
  const x0 = Math.max(0, Math.floor(region.x0));
  const y0 = Math.max(0, Math.floor(region.y0));
  const x1 = Math.min(image.width, Math.ceil(region.x1));
  const y1 = Math.min(image.height, Math.ceil(region.y1));
  const step = Math.max(1, (x1 - x0) / SAMPLE_WIDTH);
  const w = Math.floor((x1 - x0) / step);
  const h = Math.floor((y1 - y0) / step);
  if (w < 16 || h < 8) return 0;
  const grey = sampleGrey(image, x0, y0, step, w, h);
  // Horizontal edges: the change from the row above to the row below.
  const edges = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 0; x < w; x++) edges[y * w + x] = Math.abs(grey[(y + 1) * w + x]! - grey[(y - 1) * w + x]!);
  }
  const reach = Math.ceil(w * Math.sin((MAX_SKEW_DEGREES * Math.PI) / 180));
  const sums = new Float64Array(h + 2 * reach + 2);
  const counts = new Float64Array(h + 2 * reach + 2);
  // Rows of the tilted grid that cross only a corner of the region say little: left out.
  const fewest = w / 3;
  const scores = new Map<number, number>();
  const scoreAt = (d: number): number => {
    const known = scores.get(d);
    if (known !== undefined) return known;
    const t = (d * Math.PI) / 180;
    const sin = Math.sin(t);
    const cos = Math.cos(t);
    sums.fill(0);
    counts.fill(0);
    for (let y = 1; y < h - 1; y++) {
      // The row of the tilted grid through (x, y) is round(y cos - (x - w / 2) sin), here
      // counted from `reach` so that it is never negative, and stepped along x.
      let row = y * cos + (w / 2) * sin + reach + 0.5;
      for (let x = 0, at = y * w; x < w; x++, at++, row -= sin) {
        const r = row | 0;
        sums[r]! += edges[at]!;
        counts[r]!++;
      }
    }
    // Between-rows sum of squares: each row's edge total squared over its pixel count, so that
    // rows cut short by the region's corners (every slope but level) do not lose by their size.
    let score = 0;
    for (let i = 0; i < sums.length; i++) if (counts[i]! >= fewest) score += (sums[i]! * sums[i]!) / counts[i]!;
    scores.set(d, score);
    return score;
  };
  // Every second degree, then the two beside the best of them.
  let best = 0;
  for (let d = -MAX_SKEW_DEGREES; d <= MAX_SKEW_DEGREES; d += 2) if (scoreAt(d) > scoreAt(best)) best = d;
  for (const d of [best - 1, best + 1]) if (Math.abs(d) <= MAX_SKEW_DEGREES && scoreAt(d) > scoreAt(best)) best = d;
  // Level unless a slope lines the rows up clearly better (a blank or patternless region, whose
  // rows line up no better at any slope, stays level).
  if (!(scoreAt(best) > CLEARLY_BETTER * scoreAt(0))) return 0;
  let offset = 0;
  if (Math.abs(best) < MAX_SKEW_DEGREES) {
    const left = scoreAt(best - 1);
    const right = scoreAt(best + 1);
    const curve = left - 2 * scoreAt(best) + right;
    if (curve < 0) offset = (0.5 * (left - right)) / curve;
  }
  return ((best + offset) * Math.PI) / 180;
}

/** Grey levels of a `w` x `h` grid laid over the image from (x0, y0), a sample every `step`
 * pixels (the mean of the channels of the nearest pixel). */
function sampleGrey(image: RawImage, x0: number, y0: number, step: number, w: number, h: number): Float32Array {
  const { data, width, channels } = image;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = (y0 + Math.floor(y * step + step / 2)) * width;
    for (let x = 0; x < w; x++) {
      const at = (row + x0 + Math.floor(x * step + step / 2)) * channels;
      let sum = 0;
      for (let c = 0; c < channels; c++) sum += data[at + c]!;
      out[y * w + x] = sum / channels;
    }
  }
  return out;
}
