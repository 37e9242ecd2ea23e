import type { AnomalyScores } from '../../domain/camera-health.js';
import { coveredFraction, glaredFraction, largestRegion } from './cell-measures.js';
import { GRID_X, GRID_Y, NotComparableError, type ImageFeatures } from './features.js';
import { flattened, sharpnessRatios, TEXTURED_STD, washedOut } from './region-change.js';

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : Number.isFinite(x) ? x : 0);
const TILES = GRID_X * GRID_Y;

export interface Measurements {
  /** Median of per-tile sharpness (Laplacian relative to contrast) ratios, image / reference. */
  sharpness: number;
  /** Fraction of the view in the largest connected region that lost the reference's structure. */
  covered: number;
  /** Newly blown-out fraction of the view. */
  blown: number;
  /** Correlation of edge maps at no shift, and at the best shift. */
  corrZero: number;
  corrBest: number;
  /** Best shift as a fraction of the view. */
  shift: number;
  /** Fraction of structured regions found displaced (rotation, zoom, shift). */
  localMoved: number;
}

/** Measures how the image departs from the reference and turns each measure into a 0..1 score,
 * relative to the reference so a soft scene is not "blurred" and a bright one is not "glare". */
export function scoreAgainst(ref: ImageFeatures, img: ImageFeatures): { scores: AnomalyScores; measurements: Measurements } {
  if (Math.abs(ref.aspect - img.aspect) / ref.aspect > 0.03) {
    throw new NotComparableError(`The image's shape (${img.aspect.toFixed(2)}:1) differs from the reference image's (${ref.aspect.toFixed(2)}:1).`);
  }
  const m = measure(ref, img);
  const position = positionScore(m);
  // A moved camera shows new, sharp scenery: flat new areas are not a cover and bright new
  // areas (sky) are not glare. A cover of most of the view stays an obstruction.
  const coverFromMove = m.covered < 0.6 ? position : 0;
  const scores: AnomalyScores = {
    // Sharpness falling to 55% of the reference's is the threshold (0.5), provided the
    // reference's edges are still where they were (else it is a cover or a move), or the view
    // is so soft that no edge is left to line up (see heavyBlur).
    Blur: clamp01((0.85 - m.sharpness) / 0.6) * Math.max(clamp01((m.corrZero - 0.3) / 0.3), heavyBlur(m)),
    // 22% of the view covered in one piece is the threshold.
    Obstruction: clamp01(m.covered / 0.45) * (1 - coverFromMove),
    // An eighth of the view drowned in light is the threshold.
    Glare: clamp01(m.blown / 0.25) * (1 - translationScore(m)),
    'Position change': position,
  };
  for (const k of Object.keys(scores) as Array<keyof AnomalyScores>) scores[k] = Math.round(scores[k] * 1000) / 1000;
  return { scores, measurements: m };
}

/** Little detail left anywhere: a strong defocus also scrambles the edge maps that the first
 * gate compares (and smoothed maps correlate loosely at any shift), but a moved camera keeps its
 * detail and a cover leaves the rest of the view sharp, so softness this deep is a defocus
 * unless light drowns the view or most of it is flat. */
function heavyBlur(m: Measurements): number {
  const unlit = 1 - clamp01(m.blown / 0.1);
  return clamp01((0.45 - m.sharpness) / 0.1) * (1 - clamp01((m.covered - 0.4) / 0.2)) * unlit;
}

/** The translation part of Position change: the edges line up again at a clear shift, and the
 * view kept its detail (a pure move does not soften it; a translucent cover does). */
function translationScore(m: Measurements): number {
  const gain = m.corrBest - m.corrZero;
  // A move with a zoom resamples the view and softens it: the clearer the shift, the more
  // softness it may bring.
  const softest = 0.55 - 0.1 * clamp01((gain - 0.2) / 0.1);
  return clamp01(gain / 0.25) * clamp01(m.shift / 0.03) * clamp01((m.sharpness - softest) / 0.1);
}

function positionScore(m: Measurements): number {
  // Light that drowns the view also scrambles its edges: that is glare, not a move.
  const unlit = 1 - clamp01(m.blown / 0.1);
  // A large tilt: the edges line up nowhere, yet the view is sharp and not covered.
  const lost = clamp01((0.3 - m.corrBest) / 0.2) * (1 - clamp01((m.covered - 0.6) / 0.2)) * clamp01((m.sharpness - 0.6) / 0.1) * unlit;
  // Rotation or zoom: most regions found displaced (40% of them is the threshold). Resampling
  // softens the view somewhat, so detail may drop further; a cover must not be under way.
  const local = clamp01((m.localMoved - 0.15) / 0.5) * clamp01((m.sharpness - 0.35) / 0.15) * (1 - clamp01((m.covered - 0.15) / 0.1)) * unlit;
  return Math.max(translationScore(m), lost, local);
}

function measure(ref: ImageFeatures, img: ImageFeatures): Measurements {
  const ratiosX: number[] = [];
  const ratiosY: number[] = [];
  const flat = new Uint8Array(TILES);
  const soft = new Uint8Array(TILES);
  const glared = new Uint8Array(TILES);
  let anyBlown = false;
  const changedFlat = new Uint8Array(TILES);
  const blownTile = new Uint8Array(TILES);
  for (let t = 0; t < TILES; t++) {
    const rStd = ref.tiles.std[t]!;
    const iStd = img.tiles.std[t]!;
    // Glare: detail drowned in light: mostly blown out where it was not...
    const newlyBlown = img.tiles.sat[t]! - ref.tiles.sat[t]! > 0.4;
    if (newlyBlown) {
      glared[t] = 1;
      blownTile[t] = 1;
      anyBlown = true;
    }
    if (rStd < TEXTURED_STD) {
      // A plain area (wall, sky) that is still plain but of another brightness may be the
      // middle of a cover; it joins a cover region but never starts one.
      if (iStd < TEXTURED_STD && Math.abs(img.tiles.mean[t]! - ref.tiles.mean[t]!) > 30 && !newlyBlown) changedFlat[t] = 1;
      continue;
    }
    // ...or much brighter and washed out around such a light.
    if (washedOut(ref.tiles, img.tiles, t)) glared[t] = 1;
    let tileSharp = 0;
    if (iStd >= 3 && !glared[t]) {
      const [rx, ry] = sharpnessRatios(ref.tiles, img.tiles, t);
      ratiosX.push(rx);
      ratiosY.push(ry);
      tileSharp = Math.min(rx, ry);
    }
    // Structure lost: the tile became nearly flat where the reference had contrast, or soft
    // and faded (the blurred edge of something close to the lens).
    if (flattened(ref.tiles, img.tiles, t)) flat[t] = 1;
    else if (tileSharp < 0.25 && iStd < 0.6 * rStd) soft[t] = 1;
  }
  const sharpness = Math.min(medianOf(ratiosX), medianOf(ratiosY));
  // Soft tiles count as covered only when the rest of the view is sharp: when everything is
  // soft the camera is out of focus, which is Blur.
  // Blown-out tiles are glare, not a cover.
  const seeds = (sharpness > 0.6 ? flat.map((f, t) => f | soft[t]!) : flat).map((f, t) => f & (blownTile[t]! ^ 1));
  const { zero, best, dx, dy } = alignment(ref, img);
  // Washed-out areas are glare only around a light that blows part of the view out; without
  // one they are a translucent cover or haze.
  let glaredCount = 0;
  if (anyBlown) for (const g of glared) glaredCount += g;
  return {
    sharpness,
    // The coarse tiles see large flat covers whole; the cells see round and thin ones.
    covered: Math.max(largestRegion(seeds, changedFlat, GRID_X, GRID_Y) / TILES, sharpness > 0.6 ? coveredFraction(ref, img, blownTile) : 0),
    blown: Math.max(glaredCount / TILES, glaredFraction(ref, img)),
    corrZero: zero,
    corrBest: best,
    shift: Math.hypot(dx / img.alignWidth, dy / img.alignHeight),
    // Edges that still line up well where they were rule out any move: skip the local search.
    localMoved: zero >= 0.85 ? 0 : localMotion(ref, img),
  };
}

function medianOf(values: number[]): number {
  if (values.length < 3) return 1;
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

const LOCAL_GRID_X = 4;
const LOCAL_GRID_Y = 3;
const LOCAL_RANGE = 8;

/** Fraction of the structured regions whose content lies elsewhere now: each region of the
 * edge map is matched around its place; a rotated or zoomed camera moves most regions by
 * different amounts, passing traffic only a few. */
function localMotion(ref: ImageFeatures, img: ImageFeatures): number {
  const w = Math.min(ref.alignWidth, img.alignWidth);
  const h = Math.min(ref.alignHeight, img.alignHeight);
  const tw = Math.floor(w / LOCAL_GRID_X);
  const th = Math.floor(h / LOCAL_GRID_Y);
  let structured = 0;
  let moved = 0;
  for (let gy = 0; gy < LOCAL_GRID_Y; gy++) {
    for (let gx = 0; gx < LOCAL_GRID_X; gx++) {
      const x0 = gx * tw;
      const y0 = gy * th;
      if (energy(ref.align, ref.alignWidth, x0, y0, tw, th) < 0.02) continue;
      structured++;
      const zero = windowNcc(ref, img, x0, y0, tw, th, 0, 0);
      let best = zero;
      let bx = 0;
      let by = 0;
      // Coarse to fine: every second shift, then the neighbours of the best.
      for (let dy = -LOCAL_RANGE; dy <= LOCAL_RANGE; dy += 2) {
        for (let dx = -LOCAL_RANGE; dx <= LOCAL_RANGE; dx += 2) {
          const c = windowNcc(ref, img, x0, y0, tw, th, dx, dy);
          if (c > best) [best, bx, by] = [c, dx, dy];
        }
      }
      const [cx, cy] = [bx, by];
      for (let dy = cy - 1; dy <= cy + 1; dy++) {
        for (let dx = cx - 1; dx <= cx + 1; dx++) {
          const c = windowNcc(ref, img, x0, y0, tw, th, dx, dy);
          if (c > best) [best, bx, by] = [c, dx, dy];
        }
      }
      if (Math.hypot(bx, by) >= 1.5 && best >= 0.4 && best - zero >= 0.15) moved++;
    }
  }
  return structured >= 4 ? moved / structured : 0;
}

function energy(a: Float32Array, aw: number, x0: number, y0: number, w: number, h: number): number {
  let e = 0;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) e += a[y * aw + x]! * a[y * aw + x]!;
  return e;
}

function windowNcc(ref: ImageFeatures, img: ImageFeatures, x0: number, y0: number, w: number, h: number, dx: number, dy: number): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let y = y0; y < y0 + h; y++) {
    const yy = y + dy;
    if (yy < 0 || yy >= img.alignHeight) continue;
    for (let x = x0; x < x0 + w; x++) {
      const xx = x + dx;
      if (xx < 0 || xx >= img.alignWidth) continue;
      const va = ref.align[y * ref.alignWidth + x]!;
      const vb = img.align[yy * img.alignWidth + xx]!;
      ab += va * vb;
      aa += va * va;
      bb += vb * vb;
    }
  }
  return ab / (Math.sqrt(aa * bb) || 1);
}

/** Normalised correlation of the edge maps at every shift up to a quarter of the view (coarse
 * to fine), so a moved camera shows as a clear peak away from zero. */
function alignment(ref: ImageFeatures, img: ImageFeatures): { zero: number; best: number; dx: number; dy: number } {
  const w = Math.min(ref.alignWidth, img.alignWidth);
  const h = Math.min(ref.alignHeight, img.alignHeight);
  const a = ref.align;
  const b = img.align;
  const at = (dx: number, dy: number, step: number) => ncc(a, ref.alignWidth, b, img.alignWidth, w, h, dx, dy, step);
  const zero = at(0, 0, 1);
  let best = zero;
  let bx = 0;
  let by = 0;
  const rx = Math.floor(w / 4);
  const ry = Math.floor(h / 4);
  for (let dy = -ry; dy <= ry; dy += 2) {
    for (let dx = -rx; dx <= rx; dx += 2) {
      const c = at(dx, dy, 2);
      if (c > best) [best, bx, by] = [c, dx, dy];
    }
  }
  const [cx, cy] = [bx, by];
  best = at(cx, cy, 1);
  for (let dy = cy - 2; dy <= cy + 2; dy++) {
    for (let dx = cx - 2; dx <= cx + 2; dx++) {
      const c = at(dx, dy, 1);
      if (c > best) [best, bx, by] = [c, dx, dy];
    }
  }
  return { zero, best, dx: bx, dy: by };
}

function ncc(a: Float32Array, aw: number, b: Float32Array, bw: number, w: number, h: number, dx: number, dy: number, step: number): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  const x0 = Math.max(1, -dx + 1);
  const x1 = Math.min(w - 1, w - dx - 1);
  const y0 = Math.max(1, -dy + 1);
  const y1 = Math.min(h - 1, h - dy - 1);
  // Too little overlap says nothing.
  if ((x1 - x0) * (y1 - y0) < (w * h) / 3) return -1;
  for (let y = y0; y < y1; y += step) {
    const ra = y * aw;
    const rb = (y + dy) * bw + dx;
    for (let x = x0; x < x1; x += step) {
      const va = a[ra + x]!;
      const vb = b[rb + x]!;
      ab += va * vb;
      aa += va * va;
      bb += vb * vb;
    }
  }
  return ab / (Math.sqrt(aa * bb) || 1);
}
