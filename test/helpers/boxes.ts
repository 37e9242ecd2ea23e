/** Intersection over union of two boxes (0 when they do not touch). */
export function iou(a: { xmin: number; ymin: number; xmax: number; ymax: number }, b: typeof a): number {
  const w = Math.min(a.xmax, b.xmax) - Math.max(a.xmin, b.xmin);
  const h = Math.min(a.ymax, b.ymax) - Math.max(a.ymin, b.ymin);
  if (w <= 0 || h <= 0) return 0;
  const area = (r: typeof a) => (r.xmax - r.xmin) * (r.ymax - r.ymin);
  return (w * h) / (area(a) + area(b) - w * h);
}
