import { CELL_X, CELL_Y, GRID_X, GRID_Y, type ImageFeatures } from './features.js';
import { flattened, sharpnessRatios, TEXTURED_STD, washedOut } from './region-change.js';

/* What the finer cell grid measures (features.ts): covers and glare, whose shapes the coarse
 * tiles blur. */

/** A plain cell of another brightness, still plain, may be the middle of a cover. */
const CHANGED_BRIGHTNESS = 30;
/** ...or of another colour (a hand, mud, leaves over grey asphalt of their own brightness). */
const CHANGED_COLOUR = 20;

/**
 * Fraction of the view in the largest connected region that lost the reference's structure,
 * measured on the finer cell grid: cells that became nearly flat where the reference had
 * contrast, or soft and faded (the blurred edge of something close to the lens) while the rest
 * of the view is sharp (the caller measures only then: in a soft view every cell is soft);
 * plain cells that changed brightness or colour join a region but never start one.
 * `blownTile` (coarse grid) marks glare, which is not a cover.
 */
export function coveredFraction(ref: ImageFeatures, img: ImageFeatures, blownTile: Uint8Array): number {
  const n = CELL_X * CELL_Y;
  const seeds = new Uint8Array(n);
  const joinable = new Uint8Array(n);
  const r = ref.cells;
  const m = img.cells;
  const gain = exposureGain(ref, img);
  const colourShift = whiteBalanceShift(ref, img, gain);
  for (let c = 0; c < n; c++) {
    const cx = c % CELL_X;
    const cy = Math.floor(c / CELL_X);
    const tile = Math.floor((cy * GRID_Y) / CELL_Y) * GRID_X + Math.floor((cx * GRID_X) / CELL_X);
    if (blownTile[tile]) continue;
    const rStd = r.std[c]!;
    const iStd = m.std[c]!;
    if (rStd < TEXTURED_STD) {
      // Plain before and plainer now (a cover of the road's own grey), or another brightness
      // than the exposure change of the whole view gives it.
      if (iStd >= TEXTURED_STD) continue;
      const recoloured = colourShift !== null && Math.hypot(m.chromaR[c]! - gain * r.chromaR[c]! - colourShift[0], m.chromaB[c]! - gain * r.chromaB[c]! - colourShift[1]) > CHANGED_COLOUR;
      if (Math.abs(m.mean[c]! - gain * r.mean[c]!) > CHANGED_BRIGHTNESS || (rStd >= 2 && iStd < 0.5 * gain * rStd) || recoloured) joinable[c] = 1;
      continue;
    }
    if (flattened(r, m, c)) seeds[c] = 1;
    else if (iStd < 0.6 * rStd && Math.min(...sharpnessRatios(r, m, c)) < 0.25) seeds[c] = 1;
  }
  return largestRegion(seeds, joinable, CELL_X, CELL_Y) / n;
}

/** The view's overall brightness change (dusk, exposure): the median of the cells' ratios, so a
 * cover of less than half the view does not move it. */
function exposureGain(ref: ImageFeatures, img: ImageFeatures): number {
  return Math.min(5, Math.max(0.2, median(Array.from(ref.cells.mean, (r, c) => (img.cells.mean[c]! + 1) / (r + 1)))));
}

function median(values: number[]): number {
  return values.sort((a, b) => a - b)[values.length >> 1]!;
}

/** The view's overall colour change (white balance, dusk light) as a red and blue shift beyond
 * what the exposure gain does to colour differences, or null when colour cannot be compared: a
 * grey image on either side, or a camera switched to infrared, which drains the whole view. */
function whiteBalanceShift(ref: ImageFeatures, img: ImageFeatures, gain: number): [number, number] | null {
  const r = ref.cells;
  const m = img.cells;
  const cells = Array.from(r.mean, (_, c) => c);
  const colourOf = (s: typeof r) => median(cells.map((c) => Math.hypot(s.chromaR[c]!, s.chromaB[c]!)));
  const refColour = colourOf(r);
  if (refColour < 2 || colourOf(m) < 0.5 * gain * refColour) return null;
  return [median(cells.map((c) => m.chromaR[c]! - gain * r.chromaR[c]!)), median(cells.map((c) => m.chromaB[c]! - gain * r.chromaB[c]!))];
}

/** Cells newly blown out before a light counts as one: specks of reflection (bubble wrap, wet
 * plastic) blow out a cell here and there without drowning anything. */
const LIGHT_CORE_CELLS = 8;

/**
 * Fraction of the view drowned in light, on the cell grid (a streak of light crosses many tiles
 * without filling one): cells newly blown out, and the washed-out cells that had detail and
 * touch them, once the blown cells make a light (LIGHT_CORE_CELLS).
 */
export function glaredFraction(ref: ImageFeatures, img: ImageFeatures): number {
  const r = ref.cells;
  const m = img.cells;
  const n = r.mean.length;
  const blown = new Uint8Array(n);
  const washed = new Uint8Array(n);
  let blownCount = 0;
  for (let c = 0; c < n; c++) {
    if (m.sat[c]! - r.sat[c]! > 0.7) {
      blown[c] = 1;
      blownCount++;
    } else if (r.std[c]! >= TEXTURED_STD && washedOut(r, m, c)) {
      washed[c] = 1;
    }
  }
  if (blownCount < LIGHT_CORE_CELLS) return blownCount / n;
  return regionsFrom(blown, washed, CELL_X, CELL_Y) / n;
}

/** Cells in the 4-connected groups of marked cells that contain a seed. */
function regionsFrom(seeds: Uint8Array, joinable: Uint8Array, gridX: number, gridY: number): number {
  return groupSizes(seeds, joinable, gridX, gridY).reduce((a, b) => a + b, 0);
}

/** Largest 4-connected group of marked cells that contains at least one seed; `joinable`
 * cells extend a group but cannot form one alone. */
export function largestRegion(seeds: Uint8Array, joinable: Uint8Array, gridX: number, gridY: number): number {
  return Math.max(0, ...groupSizes(seeds, joinable, gridX, gridY));
}

/** Sizes of the 4-connected groups of seed and joinable cells that hold a seed. */
function groupSizes(seeds: Uint8Array, joinable: Uint8Array, gridX: number, gridY: number): number[] {
  const seen = new Uint8Array(gridX * gridY);
  const sizes: number[] = [];
  for (let start = 0; start < seeds.length; start++) {
    if (!seeds[start] || seen[start]) continue;
    let size = 0;
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const t = stack.pop()!;
      size++;
      const x = t % gridX;
      const y = Math.floor(t / gridX);
      for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]] as const) {
        if (nx < 0 || ny < 0 || nx >= gridX || ny >= gridY) continue;
        const k = ny * gridX + nx;
        if ((seeds[k] || joinable[k]) && !seen[k]) {
          seen[k] = 1;
          stack.push(k);
        }
      }
    }
    sizes.push(size);
  }
  return sizes;
}
