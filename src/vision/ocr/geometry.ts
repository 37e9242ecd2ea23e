import type { Point } from '../image/warp.js';
import type { Quad } from '../image/quad.js';

export type { Point };
export { type Quad, quadBounds, quadCentre, quadSize } from '../image/quad.js';

export interface RotatedRect {
  cx: number;
  cy: number;
  /** Side lengths along the rectangle's own axes. */
  w: number;
  h: number;
  /** Angle of the `w` side, radians. */
  angle: number;
}

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/** Andrew's monotone chain; returns the hull counter-clockwise in y-down coordinates. */
export function convexHull(points: readonly Point[]): Point[] {
  const pts = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (pts.length <= 2) return pts;
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** Smallest-area enclosing rectangle (rotating calipers over the hull edges). */
export function minAreaRect(points: readonly Point[]): RotatedRect {
  const hull = convexHull(points);
  if (hull.length === 0) return { cx: 0, cy: 0, w: 0, h: 0, angle: 0 };
  if (hull.length === 1) return { cx: hull[0]!.x, cy: hull[0]!.y, w: 0, h: 0, angle: 0 };
  let best: RotatedRect | null = null;
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len === 0) continue;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (const p of hull) {
      const u = p.x * ux + p.y * uy;
      const v = -p.x * uy + p.y * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = { cx: cu * ux - cv * uy, cy: cu * uy + cv * ux, w: maxU - minU, h: maxV - minV, angle: Math.atan2(uy, ux) };
    }
  }
  return best ?? { cx: hull[0]!.x, cy: hull[0]!.y, w: 0, h: 0, angle: 0 };
}

export function rectCorners(r: RotatedRect): Point[] {
  const c = Math.cos(r.angle);
  const s = Math.sin(r.angle);
  const hw = r.w / 2;
  const hh = r.h / 2;
  return [
    [-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh],
  ].map(([u, v]) => ({ x: r.cx + u! * c - v! * s, y: r.cy + u! * s + v! * c }));
}

/** The same four corners, clockwise, from the corner whose edge to the next points most nearly
 * right: the quad's top edge is then its most horizontal one. orderQuad (PaddleOCR's rule, by
 * x then y) starts a thin, steep box (a column of characters on a tilted panel) at a bottom
 * corner and runs its first edge up the long side, so the crop comes out turned a quarter and
 * is read as a line lying on its side. */
export function uprightQuad(q: Quad): Quad {
  const c = { x: (q[0].x + q[1].x + q[2].x + q[3].x) / 4, y: (q[0].y + q[1].y + q[2].y + q[3].y) / 4 };
  // Clockwise on screen (y down) is increasing angle.
  const around = [...q].sort((a, b) => Math.atan2(a.y - c.y, a.x - c.x) - Math.atan2(b.y - c.y, b.x - c.x));
  const rightward = (k: number) => {
    const a = around[k]!, b = around[(k + 1) % 4]!;
    return (b.x - a.x) / (Math.hypot(b.x - a.x, b.y - a.y) || 1);
  };
  let start = 0;
  for (let k = 1; k < 4; k++) if (rightward(k) > rightward(start)) start = k;
  return [0, 1, 2, 3].map((i) => around[(start + i) % 4]!) as Quad;
}

/** Orders four points clockwise from the top-left corner (as PaddleOCR's order_points_clockwise). */
export function orderQuad(points: readonly Point[]): Quad {
  const byX = [...points].sort((a, b) => a.x - b.x);
  const left = byX.slice(0, 2).sort((a, b) => a.y - b.y);
  const right = byX.slice(2, 4).sort((a, b) => a.y - b.y);
  return [left[0]!, right[0]!, right[1]!, left[1]!];
}
