import sharp, { type OutputInfo } from 'sharp';
import { DEFAULT_MAX_PIXELS, ImageDecodeError, probeImage } from '../image/decode.js';

/** Analysis works on a small grayscale copy: camera faults are visible at this size and the
 * JPEG decoder can shrink while decoding, which is much cheaper than a full decode. */
export const WORK_WIDTH = 320;
/** Tile grid for local measurements: coarse enough that a passing car covers few tiles. */
export const GRID_X = 8;
export const GRID_Y = 6;
/** Finer grid for covers: a round cover fills few whole tiles of the coarse grid, and a tile
 * half covered keeps the contrast of its edge, so a cover is measured on small cells. */
export const CELL_X = 32;
export const CELL_Y = 24;
/** Width of the gradient map used to find the camera's displacement. */
export const ALIGN_WIDTH = 80;

/** Everything the scores need from one image. Plain typed arrays, so a prepared reference can
 * be cached or sent between threads. */
export interface ImageFeatures {
  width: number;
  height: number;
  /** Source aspect ratio (width / height). */
  aspect: number;
  mean: number;
  std: number;
  /** Fraction of pixels at 250 or more. */
  saturated: number;
  /** Per tile: mean, standard deviation, mean absolute second derivative across x and across
   * y (a motion blur flattens one direction only), saturated fraction. */
  tileMean: Float32Array;
  tileStd: Float32Array;
  tileLapX: Float32Array;
  tileLapY: Float32Array;
  tileSat: Float32Array;
  /** Per cell of the finer grid: the same measures. */
  cells: CellStats;
  /** Gradient magnitude at ALIGN_WIDTH, zero mean and unit norm (for correlation). */
  align: Float32Array;
  alignWidth: number;
  alignHeight: number;
}

export interface CellStats {
  mean: Float32Array;
  /** Mean colour difference red - green and blue - green (0 for a grey image). */
  chromaR: Float32Array;
  chromaB: Float32Array;
  std: Float32Array;
  lapX: Float32Array;
  lapY: Float32Array;
  sat: Float32Array;
}

export class NotComparableError extends Error {
  override name = 'NotComparableError';
}

/** Smallest source side that can be analysed. */
export const MIN_SOURCE_SIDE = 64;

export async function extractFeatures(bytes: Buffer, maxPixels = DEFAULT_MAX_PIXELS): Promise<ImageFeatures> {
  const info = await probeImage(bytes, maxPixels);
  if (Math.min(info.width, info.height) < MIN_SOURCE_SIDE) {
    throw new NotComparableError(`The image is ${info.width}x${info.height} pixels; analysis needs at least ${MIN_SOURCE_SIDE} on each side.`);
  }
  let raw: { data: Buffer; info: OutputInfo };
  try {
    raw = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'truncated', pages: 1 })
      .rotate()
      .resize({ width: WORK_WIDTH, fastShrinkOnLoad: true })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ImageDecodeError('The image data is corrupt or truncated.', 'unreadable');
  }
  const { width, height, channels } = raw.info;
  // Brightness as libvips converts to grey; colour kept for the covers' colour cue.
  const gray = channels === 1 ? raw.data : await sharp(raw.data, { raw: { width, height, channels } }).grayscale().raw().toBuffer();
  return featuresOf(gray, channels === 3 ? raw.data : null, width, height, info.width / info.height);
}

/** `grey`: one byte per pixel; `rgb`: the same pixels in colour, or null for a grey image. */
export function featuresOf(grey: Uint8Array, rgb: Uint8Array | null, width: number, height: number, aspect: number): ImageFeatures {
  const n = width * height;
  const gray = new Float32Array(n);
  let sum = 0;
  let sumSq = 0;
  let sat = 0;
  for (let i = 0; i < n; i++) {
    const v = grey[i]!;
    gray[i] = v;
    sum += v;
    sumSq += v * v;
    if (v >= 250) sat++;
  }
  const mean = sum / n;
  const tiles = GRID_X * GRID_Y;
  const tSum = new Float64Array(tiles);
  const tSq = new Float64Array(tiles);
  const tLapX = new Float64Array(tiles);
  const tLapY = new Float64Array(tiles);
  const tSat = new Float64Array(tiles);
  const tCount = new Float64Array(tiles);
  const cells = CELL_X * CELL_Y;
  const cSum = new Float64Array(cells);
  const cSq = new Float64Array(cells);
  const cLapX = new Float64Array(cells);
  const cLapY = new Float64Array(cells);
  const cSat = new Float64Array(cells);
  const cChromaR = new Float64Array(cells);
  const cChromaB = new Float64Array(cells);
  const cCount = new Float64Array(cells);
  const cellOfX = Int32Array.from({ length: width }, (_, x) => Math.min(CELL_X - 1, Math.floor((x * CELL_X) / width)));
  for (let y = 1; y < height - 1; y++) {
    const ty = Math.min(GRID_Y - 1, Math.floor((y * GRID_Y) / height));
    const cy = Math.min(CELL_Y - 1, Math.floor((y * CELL_Y) / height));
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const v = gray[i]!;
      const lapX = Math.abs(2 * v - gray[i - 1]! - gray[i + 1]!);
      const lapY = Math.abs(2 * v - gray[i - width]! - gray[i + width]!);
      const t = ty * GRID_X + Math.min(GRID_X - 1, Math.floor((x * GRID_X) / width));
      tSum[t]! += v;
      tSq[t]! += v * v;
      tLapX[t]! += lapX;
      tLapY[t]! += lapY;
      if (v >= 250) tSat[t]!++;
      tCount[t]!++;
      const c = cy * CELL_X + cellOfX[x]!;
      cSum[c]! += v;
      cSq[c]! += v * v;
      cLapX[c]! += lapX;
      cLapY[c]! += lapY;
      if (v >= 250) cSat[c]!++;
      if (rgb) {
        cChromaR[c]! += rgb[3 * i]! - rgb[3 * i + 1]!;
        cChromaB[c]! += rgb[3 * i + 2]! - rgb[3 * i + 1]!;
      }
      cCount[c]!++;
    }
  }
  const tileMean = new Float32Array(tiles);
  const tileStd = new Float32Array(tiles);
  const tileLapX = new Float32Array(tiles);
  const tileLapY = new Float32Array(tiles);
  const tileSat = new Float32Array(tiles);
  for (let t = 0; t < tiles; t++) {
    const c = Math.max(1, tCount[t]!);
    const m = tSum[t]! / c;
    tileMean[t] = m;
    tileStd[t] = Math.sqrt(Math.max(0, tSq[t]! / c - m * m));
    tileLapX[t] = tLapX[t]! / c;
    tileLapY[t] = tLapY[t]! / c;
    tileSat[t] = tSat[t]! / c;
  }
  const cellStats: CellStats = { mean: new Float32Array(cells), chromaR: new Float32Array(cells), chromaB: new Float32Array(cells), std: new Float32Array(cells), lapX: new Float32Array(cells), lapY: new Float32Array(cells), sat: new Float32Array(cells) };
  for (let c = 0; c < cells; c++) {
    const k = Math.max(1, cCount[c]!);
    const m = cSum[c]! / k;
    cellStats.mean[c] = m;
    cellStats.chromaR[c] = cChromaR[c]! / k;
    cellStats.chromaB[c] = cChromaB[c]! / k;
    cellStats.std[c] = Math.sqrt(Math.max(0, cSq[c]! / k - m * m));
    cellStats.lapX[c] = cLapX[c]! / k;
    cellStats.lapY[c] = cLapY[c]! / k;
    cellStats.sat[c] = cSat[c]! / k;
  }
  const { align, alignWidth, alignHeight } = alignmentMap(gray, width, height);
  return {
    width, height, aspect, mean, std: Math.sqrt(Math.max(0, sumSq / n - mean * mean)), saturated: sat / n,
    tileMean, tileStd, tileLapX, tileLapY, tileSat, cells: cellStats, align, alignWidth, alignHeight,
  };
}

/** Gradient magnitude on a box-downsampled copy: edges survive lighting changes better than
 * raw intensity, and the small size keeps the shift search cheap. */
function alignmentMap(gray: Float32Array, width: number, height: number) {
  const f = Math.max(1, Math.round(width / ALIGN_WIDTH));
  const w = Math.floor(width / f);
  const h = Math.floor(height / f);
  const small = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++) for (let dx = 0; dx < f; dx++) s += gray[(y * f + dy) * width + x * f + dx]!;
      small[y * w + x] = s / (f * f);
    }
  }
  const align = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = small[i + 1]! - small[i - 1]!;
      const gy = small[i + w]! - small[i - w]!;
      align[i] = Math.sqrt(gx * gx + gy * gy);
    }
  }
  normalise(align);
  return { align, alignWidth: w, alignHeight: h };
}

function normalise(a: Float32Array) {
  let m = 0;
  for (const v of a) m += v;
  m /= a.length;
  let norm = 0;
  for (let i = 0; i < a.length; i++) {
    a[i]! -= m;
    norm += a[i]! * a[i]!;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < a.length; i++) a[i]! /= norm;
}
