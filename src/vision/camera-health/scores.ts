import type { AnomalyScores } from '../../domain/camera-health.js';
import { GRID_X, GRID_Y, NotComparableError, type ImageFeatures } from './features.js';

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : Number.isFinite(x) ? x : 0);
const TILES = GRID_X * GRID_Y;
/** A reference tile with less contrast than this carries no structure to lose (sky, wall). */
const TEXTURED_STD = 6;

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
    // reference's edges are still where they were (else it is a cover or a move).
    Blur: clamp01((0.85 - m.sharpness) / 0.6) * clamp01((m.corrZero - 0.3) / 0.3),
    // 22% of the view covered in one piece is the threshold.
    Obstruction: clamp01(m.covered / 0.45) * (1 - coverFromMove),
    // An eighth of the view newly blown out is the threshold.
    Glare: clamp01(m.blown / 0.25) * (1 - position),
    'Position change': position,
  };
  for (const k of Object.keys(scores) as Array<keyof AnomalyScores>) scores[k] = Math.round(scores[k] * 1000) / 1000;
  return { scores, measurements: m };
}

function positionScore(m: Measurements): number {
  // Only a view that is still sharp can be judged moved; a blurred or covered one is not.
  const sharpOk = clamp01((m.sharpness - 0.55) / 0.15);
  // A translation: the edges line up again at a clear shift.
  const translated = clamp01((m.corrBest - m.corrZero) / 0.25) * clamp01(m.shift / 0.03);
  // Rotation, zoom or a large tilt: the edges line up nowhere, yet the view is not covered.
  const lost = clamp01((0.3 - m.corrBest) / 0.2) * (1 - clamp01((m.covered - 0.6) / 0.2));
  return Math.max(translated, lost) * sharpOk;
}

function measure(ref: ImageFeatures, img: ImageFeatures): Measurements {
  const ratios: number[] = [];
  const covered = new Uint8Array(TILES);
  let blownTiles = 0;
  for (let t = 0; t < TILES; t++) {
    const rStd = ref.tileStd[t]!;
    const iStd = img.tileStd[t]!;
    if (rStd >= TEXTURED_STD) {
      const rs = ref.tileLap[t]! / rStd;
      const is = img.tileLap[t]! / Math.max(iStd, 1);
      if (iStd >= 3) ratios.push(is / Math.max(rs, 1e-3));
      // Structure lost: the tile became nearly flat where the reference had contrast.
      if (iStd < Math.max(3, 0.3 * rStd)) covered[t] = 1;
    }
    blownTiles += Math.max(0, img.tileSat[t]! - ref.tileSat[t]!);
  }
  ratios.sort((a, b) => a - b);
  const sharpness = ratios.length >= 3 ? ratios[Math.floor(ratios.length / 2)]! : 1;
  const { zero, best, dx, dy } = alignment(ref, img);
  // Blown-out area counts where it was not blown out before; a washed-out frame (contrast
  // collapsing into brightness) counts in full.
  const washout = img.mean > 200 && img.std < 0.5 * ref.std ? clamp01((img.mean - 200) / 40) : 0;
  return {
    sharpness,
    covered: largestRegion(covered) / TILES,
    blown: Math.max(blownTiles / TILES, washout * 0.5),
    corrZero: zero,
    corrBest: best,
    shift: Math.hypot(dx / img.alignWidth, dy / img.alignHeight),
  };
}

/** Largest 4-connected group of marked tiles. */
function largestRegion(marked: Uint8Array): number {
  const seen = new Uint8Array(TILES);
  let best = 0;
  for (let start = 0; start < TILES; start++) {
    if (!marked[start] || seen[start]) continue;
    let size = 0;
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const t = stack.pop()!;
      size++;
      const x = t % GRID_X;
      const y = Math.floor(t / GRID_X);
      for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]] as const) {
        if (nx < 0 || ny < 0 || nx >= GRID_X || ny >= GRID_Y) continue;
        const n = ny * GRID_X + nx;
        if (marked[n] && !seen[n]) {
          seen[n] = 1;
          stack.push(n);
        }
      }
    }
    best = Math.max(best, size);
  }
  return best;
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
