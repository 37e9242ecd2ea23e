/** Box geometry the benches score readings by: pixels, corners inclusive. */

export interface BoxXyxy { xmin: number; ymin: number; xmax: number; ymax: number }

/** Intersection over union of two boxes (0 when they do not meet). */
export function iou(a: BoxXyxy, b: BoxXyxy): number {
  const w = Math.min(a.xmax, b.xmax) - Math.max(a.xmin, b.xmin);
  const h = Math.min(a.ymax, b.ymax) - Math.max(a.ymin, b.ymin);
  if (w <= 0 || h <= 0) return 0;
  const area = (r: BoxXyxy) => (r.xmax - r.xmin) * (r.ymax - r.ymin);
  return (w * h) / (area(a) + area(b) - w * h);
}

/** Share of `labeled` that lies inside at least one of `boxes`, sampled on a 16 x 16 grid of
 * its area (their union, as blurring every returned box hides it). */
export function coverage(labeled: BoxXyxy, boxes: readonly BoxXyxy[]): number {
  const steps = 16;
  let inside = 0;
  for (let j = 0; j < steps; j++) {
    const y = labeled.ymin + ((j + 0.5) * (labeled.ymax - labeled.ymin)) / steps;
    for (let i = 0; i < steps; i++) {
      const x = labeled.xmin + ((i + 0.5) * (labeled.xmax - labeled.xmin)) / steps;
      if (boxes.some((b) => x >= b.xmin && x <= b.xmax && y >= b.ymin && y <= b.ymax)) inside++;
    }
  }
  return inside / (steps * steps);
}
