import type { TextLine } from '../ocr.types.js';

export interface Placed {
  line: TextLine;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Axis-aligned extent of each line, in reading order (top to bottom, then left to right). */
export function placed(lines: TextLine[]): Placed[] {
  const out = lines.map((line) => {
    const xs = line.box.map((p) => p.x);
    const ys = line.box.map((p) => p.y);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    return { line, x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
  });
  return out.sort((a, b) => (Math.abs(a.y - b.y) < Math.min(a.h, b.h) / 2 ? a.x - b.x : a.y - b.y));
}

/** Lines near each other, in reading order: the pieces of one code painted in parts
 * (owner code, serial and boxed check digit; a VIN split by a sticker edge). */
export function neighbourGroups(lines: Placed[], maxParts: number): Placed[][] {
  const groups: Placed[][] = lines.map((l) => [l]);
  const near = (a: Placed, b: Placed) => {
    const gapX = b.x - (a.x + a.w);
    const sameRow = Math.abs(a.y + a.h / 2 - (b.y + b.h / 2)) < Math.max(a.h, b.h) * 0.7 && gapX > -a.h && gapX < Math.max(a.h, b.h) * 3;
    const below = b.y > a.y && b.y - (a.y + a.h) < Math.max(a.h, b.h) * 1.5 && Math.abs(a.x - b.x) < Math.max(a.w, b.w);
    return sameRow || below;
  };
  let frontier = groups;
  for (let size = 2; size <= maxParts; size++) {
    const next: Placed[][] = [];
    for (const g of frontier) {
      const last = g[g.length - 1]!;
      for (const l of lines) if (!g.includes(l) && near(last, l)) next.push([...g, l]);
    }
    groups.push(...next);
    frontier = next;
  }
  return groups;
}

export const joined = (g: Placed[]) => g.map((p) => p.line.text).join('');
export const meanConfidence = (g: Placed[]) => g.reduce((s, p) => s + p.line.confidence, 0) / g.length;
export const charConfidences = (g: Placed[]) => g.flatMap((p) => p.line.charConfidences.slice(0, p.line.text.length).filter((_, i) => p.line.text[i] !== ' '));
