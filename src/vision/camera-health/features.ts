import sharp, { type OutputInfo } from 'sharp';
import { DEFAULT_MAX_PIXELS, ImageDecodeError, probeImage } from '../image/decode.js';

/** Analysis works on a small copy: camera faults are visible at this size and the JPEG decoder
 * can shrink while decoding, which is much cheaper than a full decode. */
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

/** Per region of a grid: mean, standard deviation, mean absolute second derivative across x
 * and across y (a motion blur flattens one direction only), saturated fraction (pixels at 250 or
 * more), and the mean colour differences red - green and blue - green (0 for a grey image). */
export interface GridStats {
  mean: Float32Array;
  std: Float32Array;
  lapX: Float32Array;
  lapY: Float32Array;
  sat: Float32Array;
  chromaR: Float32Array;
  chromaB: Float32Array;
}

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
  /** The GRID_X x GRID_Y tiles and the finer CELL_X x CELL_Y cells. */
  tiles: GridStats;
  cells: GridStats;
  /** Gradient magnitude at ALIGN_WIDTH, zero mean and unit norm (for correlation). */
  align: Float32Array;
  alignWidth: number;
  alignHeight: number;
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

/** Sums over the regions of one grid, pixel by pixel. */
class GridSums {
  private readonly sum: Float64Array;
  private readonly sq: Float64Array;
  private readonly lapX: Float64Array;
  private readonly lapY: Float64Array;
  private readonly sat: Float64Array;
  private readonly chromaR: Float64Array;
  private readonly chromaB: Float64Array;
  private readonly count: Float64Array;
  private readonly regionOfX: Int32Array;

  constructor(private readonly cols: number, private readonly rows: number, width: number, private readonly height: number) {
    const n = cols * rows;
    [this.sum, this.sq, this.lapX, this.lapY, this.sat, this.chromaR, this.chromaB, this.count] = Array.from({ length: 8 }, () => new Float64Array(n)) as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
    this.regionOfX = Int32Array.from({ length: width }, (_, x) => Math.min(cols - 1, Math.floor((x * cols) / width)));
  }

  /** The first region of row y. */
  rowStart(y: number): number {
    return Math.min(this.rows - 1, Math.floor((y * this.rows) / this.height)) * this.cols;
  }

  add(rowStart: number, x: number, v: number, lapX: number, lapY: number, chromaR: number, chromaB: number): void {
    const r = rowStart + this.regionOfX[x]!;
    this.sum[r]! += v;
    this.sq[r]! += v * v;
    this.lapX[r]! += lapX;
    this.lapY[r]! += lapY;
    if (v >= 250) this.sat[r]!++;
    this.chromaR[r]! += chromaR;
    this.chromaB[r]! += chromaB;
    this.count[r]!++;
  }

  stats(): GridStats {
    const n = this.cols * this.rows;
    const out: GridStats = { mean: new Float32Array(n), std: new Float32Array(n), lapX: new Float32Array(n), lapY: new Float32Array(n), sat: new Float32Array(n), chromaR: new Float32Array(n), chromaB: new Float32Array(n) };
    for (let r = 0; r < n; r++) {
      const k = Math.max(1, this.count[r]!);
      const m = this.sum[r]! / k;
      out.mean[r] = m;
      out.std[r] = Math.sqrt(Math.max(0, this.sq[r]! / k - m * m));
      out.lapX[r] = this.lapX[r]! / k;
      out.lapY[r] = this.lapY[r]! / k;
      out.sat[r] = this.sat[r]! / k;
      out.chromaR[r] = this.chromaR[r]! / k;
      out.chromaB[r] = this.chromaB[r]! / k;
    }
    return out;
  }
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
  const tiles = new GridSums(GRID_X, GRID_Y, width, height);
  const cells = new GridSums(CELL_X, CELL_Y, width, height);
  for (let y = 1; y < height - 1; y++) {
    const tileRow = tiles.rowStart(y);
    const cellRow = cells.rowStart(y);
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const v = gray[i]!;
      const lapX = Math.abs(2 * v - gray[i - 1]! - gray[i + 1]!);
      const lapY = Math.abs(2 * v - gray[i - width]! - gray[i + width]!);
      const chromaR = rgb ? rgb[3 * i]! - rgb[3 * i + 1]! : 0;
      const chromaB = rgb ? rgb[3 * i + 2]! - rgb[3 * i + 1]! : 0;
      tiles.add(tileRow, x, v, lapX, lapY, chromaR, chromaB);
      cells.add(cellRow, x, v, lapX, lapY, chromaR, chromaB);
    }
  }
  const { align, alignWidth, alignHeight } = alignmentMap(gray, width, height);
  return {
    width, height, aspect, mean, std: Math.sqrt(Math.max(0, sumSq / n - mean * mean)), saturated: sat / n,
    tiles: tiles.stats(), cells: cells.stats(), align, alignWidth, alignHeight,
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
