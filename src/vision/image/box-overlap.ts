/** An axis-aligned box in image pixels. */
export interface BoxBounds {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** The smallest box holding both. */
export const unionBox = (a: BoxBounds, b: BoxBounds): BoxBounds => ({
  xmin: Math.min(a.xmin, b.xmin), ymin: Math.min(a.ymin, b.ymin), xmax: Math.max(a.xmax, b.xmax), ymax: Math.max(a.ymax, b.ymax),
});

const area = (b: BoxBounds) => Math.max(0, b.xmax - b.xmin) * Math.max(0, b.ymax - b.ymin);

/** Intersection over the smaller box: 1 where one box lies inside the other (a merged candidate
 * contains its parts; a box that stopped a character short lies in the whole line's). */
export function overlapRatio(a: BoxBounds, b: BoxBounds): number {
  const w = Math.min(a.xmax, b.xmax) - Math.max(a.xmin, b.xmin);
  const h = Math.min(a.ymax, b.ymax) - Math.max(a.ymin, b.ymin);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.max(1, Math.min(area(a), area(b)));
}
