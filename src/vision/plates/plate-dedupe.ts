import type { Box } from '../../services/recognition/plate-reader.port.js';

const area = (b: Box) => Math.max(0, b.xmax - b.xmin) * Math.max(0, b.ymax - b.ymin);

/** Intersection over the smaller box: a merged candidate contains its parts. */
export function overlapRatio(a: Box, b: Box): number {
  const w = Math.min(a.xmax, b.xmax) - Math.max(a.xmin, b.xmin);
  const h = Math.min(a.ymax, b.ymax) - Math.max(a.ymin, b.ymin);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.max(1, Math.min(area(a), area(b)));
}

/** Keeps the best result per place and per plate text; `items` must be sorted best first. */
export function dedupePlates<T extends { textBox: Box; plate: string }>(items: readonly T[], maxOverlap = 0.5): T[] {
  const kept: T[] = [];
  for (const it of items) {
    if (kept.some((k) => k.plate === it.plate || overlapRatio(k.textBox, it.textBox) > maxOverlap)) continue;
    kept.push(it);
  }
  return kept;
}

export interface RankedText {
  /** Bounds of the text lines (not the estimated plate). */
  textBox: Box;
  /** Height of one text line, pixels. */
  lineHeight: number;
  /** The reading fits a plate format (a region template or a client format). */
  matched: boolean;
}

/** Drops text that sits just above or below a clearly taller reading: a plate's state name,
 * slogan or dealer frame, never its number (the number is the largest text on a plate). Only
 * a taller reading that fits a plate format counts: a taxi's roof number or a sign above a
 * plate is large too, and the plate under it is no slogan. */
export function dropSubordinateText<T extends RankedText>(items: readonly T[]): T[] {
  return items.filter((it) => !items.some((big) => {
    if (big === it || !big.matched || big.lineHeight < 1.3 * it.lineHeight) return false;
    const a = big.textBox;
    const b = it.textBox;
    const overlapX = Math.min(a.xmax, b.xmax) - Math.max(a.xmin, b.xmin);
    const dy = Math.abs((a.ymin + a.ymax) / 2 - (b.ymin + b.ymax) / 2);
    return overlapX > 0.3 * (b.xmax - b.xmin) && dy < 2.5 * big.lineHeight;
  }));
}

/** Camera overlays (date and time stamps) are small digit runs along the top or bottom edge
 * of a scene (on a plate crop the number is large and may touch the edge). */
export function isOverlayText(plate: string, textBox: Box, imageHeight: number): boolean {
  const edge = 0.05 * imageHeight;
  const small = textBox.ymax - textBox.ymin < 0.08 * imageHeight;
  return small && /^[0-9]+$/.test(plate) && (textBox.ymin < edge || textBox.ymax > imageHeight - edge);
}
