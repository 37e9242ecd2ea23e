import { type Point, type Quad, quadCentre } from './geometry.js';

/** Sideways drift of a column per pixel down below which its box stays upright (about 1.7
 * degrees: a straight column's pieces are never centred exactly), and above which a drift is
 * no column's (about 17 degrees: the chain took in a neighbour). */
const MIN_DRIFT = 0.03;
const MAX_DRIFT = 0.3;

/** The box around a column's pieces, turned along the line through their centres. A column
 * painted on a panel the camera sees at a tilt drifts sideways from top to bottom; an upright
 * box around it holds its first character at one side and its last at the other, and the
 * stack reader then left the first out (F7148 read 7148). */
export function columnBox(pieces: readonly Quad[]): Quad {
  const drift = driftOf(pieces.map(quadCentre));
  const s = Math.abs(drift) < MIN_DRIFT ? 0 : Math.max(-MAX_DRIFT, Math.min(MAX_DRIFT, drift));
  const norm = Math.hypot(s, 1);
  const down = { x: s / norm, y: 1 / norm };
  const across = { x: 1 / norm, y: -s / norm };
  const corners = pieces.flat();
  const along = corners.map((p) => p.x * down.x + p.y * down.y);
  const side = corners.map((p) => p.x * across.x + p.y * across.y);
  const [a0, a1, b0, b1] = [Math.min(...along), Math.max(...along), Math.min(...side), Math.max(...side)];
  const at = (a: number, b: number): Point => ({ x: a * down.x + b * across.x, y: a * down.y + b * across.y });
  return [at(a0, b0), at(a0, b1), at(a1, b1), at(a1, b0)];
}

/** Least-squares slope of x against y through the centres (0 for fewer than two rows). */
function driftOf(centres: readonly Point[]): number {
  const n = centres.length;
  const my = centres.reduce((t, c) => t + c.y, 0) / n;
  const mx = centres.reduce((t, c) => t + c.x, 0) / n;
  let num = 0, den = 0;
  for (const c of centres) {
    num += (c.y - my) * (c.x - mx);
    den += (c.y - my) ** 2;
  }
  return den > 1 ? num / den : 0;
}
