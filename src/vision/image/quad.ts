import type { Point } from './warp.js';

/** Four corners, clockwise from top-left: top-left, top-right, bottom-right, bottom-left. */
export type Quad = [Point, Point, Point, Point];

/** Width and height of the straightened crop of a quad. */
export function quadSize(q: Quad): { width: number; height: number } {
  const d = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  return {
    width: Math.max(d(q[0], q[1]), d(q[3], q[2])),
    height: Math.max(d(q[0], q[3]), d(q[1], q[2])),
  };
}

export function quadBounds(q: readonly Point[]): { x0: number; y0: number; x1: number; y1: number } {
  const xs = q.map((p) => p.x);
  const ys = q.map((p) => p.y);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** Unit vector along a quad's text line (the mean of its top and bottom edges), so a tilted
 * line can be grown or measured in its own directions. */
export function quadAxis(q: Quad): Point {
  const ux = (q[1].x - q[0].x + q[2].x - q[3].x) / 2;
  const uy = (q[1].y - q[0].y + q[2].y - q[3].y) / 2;
  const ul = Math.hypot(ux, uy) || 1;
  return { x: ux / ul, y: uy / ul };
}

export function quadCentre(q: readonly Point[]): Point {
  return { x: q.reduce((s, p) => s + p.x, 0) / q.length, y: q.reduce((s, p) => s + p.y, 0) / q.length };
}
