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

/** Grows a quad around its centre: `px` of its height on the left and right, `py` above and below. */
export function padQuad(q: Quad, px: number, py: number): Quad {
  const { x: cx, y: cy } = quadCentre(q);
  const { width: w, height: h } = quadSize(q);
  const sx = (w + 2 * px * h) / Math.max(1, w);
  const sy = (h + 2 * py * h) / Math.max(1, h);
  // Axes of the quad, so a tilted plate is padded along its own directions.
  const ex = quadAxis(q);
  const ey = { x: -ex.y, y: ex.x };
  return q.map((p) => {
    const dx = p.x - cx;
    const dy = p.y - cy;
    const a = (dx * ex.x + dy * ex.y) * sx;
    const b = (dx * ey.x + dy * ey.y) * sy;
    return { x: cx + a * ex.x + b * ey.x, y: cy + a * ex.y + b * ey.y };
  }) as Quad;
}

/** Moves a quad's left and right ends outwards along its own axis, by `left` and `right` of
 * its height. */
export function widenQuad(q: Quad, left: number, right: number): Quad {
  const { height: h } = quadSize(q);
  const ex = quadAxis(q);
  const move = (p: Quad[number], d: number) => ({ x: p.x + d * h * ex.x, y: p.y + d * h * ex.y });
  return [move(q[0], -left), move(q[1], right), move(q[2], right), move(q[3], -left)];
}

/** Moves a quad's top and bottom ends outwards along its sides (the mean of its left and right
 * edges, so a column of slanted characters grows along its slant), by `top` and `bottom` pixels. */
export function lengthenQuad(q: Quad, top: number, bottom: number): Quad {
  const dx = (q[3].x - q[0].x + q[2].x - q[1].x) / 2;
  const dy = (q[3].y - q[0].y + q[2].y - q[1].y) / 2;
  const l = Math.hypot(dx, dy) || 1;
  const move = (p: Quad[number], d: number) => ({ x: p.x + (d * dx) / l, y: p.y + (d * dy) / l });
  return [move(q[0], -top), move(q[1], -top), move(q[2], bottom), move(q[3], bottom)];
}
