import { quadBounds } from '../geometry.js';
import type { TextLine } from '../ocr.types.js';

export interface Placed {
  line: TextLine;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Full-width letters and digits (the recogniser's dictionary has both forms, and reads a
 * stack of single characters as full-width) as their ASCII forms, and the multiplication sign
 * (which its dictionary holds for dimensions, 3×4) as the X it reads it for in an identifier,
 * one character for one, so per-character confidences stay aligned. */
export function asciiForms(text: string): string {
  return text.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u00D7/g, 'X');
}

/** Axis-aligned extent of each line, in reading order (top to bottom, then left to right);
 * full-width characters as ASCII. */
export function placed(lines: TextLine[]): Placed[] {
  const out = lines.map((raw) => {
    const line = { ...raw, text: asciiForms(raw.text), alternatives: raw.alternatives.map((alts) => alts.map((a) => ({ ...a, char: asciiForms(a.char) }))) };
    const b = quadBounds(line.box);
    return { line, x: b.x0, y: b.y0, w: b.x1 - b.x0, h: b.y1 - b.y0 };
  });
  return out.sort((a, b) => (Math.abs(a.y - b.y) < Math.min(a.h, b.h) / 2 ? a.x - b.x : a.y - b.y));
}

/** A rectangle of the image, in pixels. */
export interface Region { x: number; y: number; w: number; h: number }

/** A rectangle's corners as a text box's, clockwise from the top left. */
export const rectQuad = (r: Region): TextLine['box'] => [{ x: r.x, y: r.y }, { x: r.x + r.w, y: r.y }, { x: r.x + r.w, y: r.y + r.h }, { x: r.x, y: r.y + r.h }];

/** The rectangle around a group of lines, in image pixels. */
export function extentOf(group: ReadonlyArray<Pick<Placed, 'x' | 'y' | 'w' | 'h'>>): { xmin: number; ymin: number; xmax: number; ymax: number } {
  return {
    xmin: Math.round(Math.min(...group.map((p) => p.x))), ymin: Math.round(Math.min(...group.map((p) => p.y))),
    xmax: Math.round(Math.max(...group.map((p) => p.x + p.w))), ymax: Math.round(Math.max(...group.map((p) => p.y + p.h))),
  };
}

/** Whether two horizontal lines' middles are at about one height: pieces of one row of text. */
export function onOneRow(a: Placed, b: Placed): boolean {
  return Math.abs(a.y + a.h / 2 - (b.y + b.h / 2)) < Math.max(a.h, b.h) * 0.7;
}

/** Whether each line's middle lies within the other's height: pieces of one printed line (a
 * number split at a sticker's edge). A caption above a number printed larger passes onOneRow,
 * whose reach grows with the taller line, but its middle lies above the number's top. */
export function sameLine(a: Placed, b: Placed): boolean {
  const inside = (p: Placed, q: Placed) => p.y + p.h / 2 >= q.y && p.y + p.h / 2 <= q.y + q.h;
  return inside(a, b) && inside(b, a);
}

/** Lines near each other, in reading order: the pieces of one code painted in parts
 * (owner code, serial and boxed check digit; a VIN split by a sticker edge). */
export function neighbourGroups(lines: Placed[], maxParts: number): Placed[][] {
  const groups: Placed[][] = lines.map((l) => [l]);
  const near = (a: Placed, b: Placed) => {
    if (a.line.orientation !== b.line.orientation) return false;
    if (a.line.orientation === 'vertical') {
      // Pieces of a column painted top to bottom: the next one below, in the same column.
      const gapY = b.y - (a.y + a.h);
      const thick = Math.max(a.w, b.w);
      return Math.abs(a.x + a.w / 2 - (b.x + b.w / 2)) < thick * 0.8 && gapY > -thick && gapY < thick * 3;
    }
    const gapX = b.x - (a.x + a.w);
    const sameRow = onOneRow(a, b) && gapX > -a.h && gapX < Math.max(a.h, b.h) * 3;
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
