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

export function quadCentre(q: readonly Point[]): Point {
  return { x: q.reduce((s, p) => s + p.x, 0) / q.length, y: q.reduce((s, p) => s + p.y, 0) / q.length };
}
