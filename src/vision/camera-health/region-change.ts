import type { GridStats } from './features.js';

/* How one region of a grid (a tile or a cell, features.ts) changed from the reference: the tests
 * the coarse tiles and the fine cells share, so both grids judge a region alike. */

/** A reference region with less contrast than this carries no structure to lose (sky, wall,
 * asphalt). */
export const TEXTURED_STD = 6;

/** Much brighter and washed out, though not flat (a flat surface is a cover): glare's halo. */
export function washedOut(ref: GridStats, img: GridStats, i: number): boolean {
  return img.mean[i]! > ref.mean[i]! + 40 && img.mean[i]! > 170 && img.std[i]! < 0.6 * ref.std[i]! && img.std[i]! >= 4;
}

/** Nearly flat where the reference had contrast. */
export function flattened(ref: GridStats, img: GridStats, i: number): boolean {
  return img.std[i]! < Math.max(3, 0.3 * ref.std[i]!);
}

/** Second derivatives across x and across y relative to contrast, image over reference: blur
 * lowers them, lighting does not. */
export function sharpnessRatios(ref: GridStats, img: GridStats, i: number): [number, number] {
  const rStd = ref.std[i]!;
  const iStd = img.std[i]!;
  return [
    (img.lapX[i]! / iStd) / Math.max(ref.lapX[i]! / rStd, 1e-3),
    (img.lapY[i]! / iStd) / Math.max(ref.lapY[i]! / rStd, 1e-3),
  ];
}
