import { overlapRatio } from '../image/box-overlap.js';
import type { Box } from './plate.types.js';


/** Keeps the best result per place and per plate text; `items` must be sorted best first. */
export function dedupePlates<T extends { textBox: Box; plate: string }>(items: readonly T[], maxOverlap = 0.5): T[] {
  const kept: T[] = [];
  for (const it of items) {
    if (kept.some((k) => k.plate === it.plate || overlapRatio(k.textBox, it.textBox) > maxOverlap)) continue;
    kept.push(it);
  }
  return kept;
}

/** A reading whose every character the recogniser saw at least this surely. */
const SURE_CHAR = 0.8;
/** Text boxes of one line differ in height by less than this factor (two stacked lines do not). */
const SAME_LINE_HEIGHT = 1.3;

/** `outer` reaches across `inner`'s columns (a tenth of its width spared at either end). */
export function spans(outer: Box, inner: Box): boolean {
  const slack = 0.1 * (inner.xmax - inner.xmin);
  return outer.xmin <= inner.xmin + slack && outer.xmax >= inner.xmax - slack;
}

/** O/0 and I/1 are one character to a plate's reader (and to most plate fonts). */
const loose = (plate: string) => plate.toUpperCase().replace(/O/g, '0').replace(/I/g, '1');

/** Drops a reading that another reading of the same line repeats with one more
 * character at an end, every character of it read surely, over columns that take in the shorter
 * one's: the shorter line's box stopped short of a character (a letter joined to the plate's
 * artwork), and however well the shorter text fits a format, it is no plate number. A longer
 * reading with an unsure character (a bolt, an emblem read as a letter) drops nothing, nor does
 * one of two stacked lines (a state's initial over the number is no part of it). */
export function dropTruncatedReadings<T extends { plate: string; textBox: Box; weakest: number }>(items: readonly T[]): T[] {
  const height = (b: Box) => b.ymax - b.ymin;
  return items.filter((it) => !items.some((long) => {
    const extra = long.plate.length - it.plate.length;
    if (extra !== 1 || long.weakest < SURE_CHAR) return false;
    const [l, s] = [loose(long.plate), loose(it.plate)];
    return (l.startsWith(s) || l.endsWith(s)) && height(long.textBox) <= SAME_LINE_HEIGHT * height(it.textBox)
      && spans(long.textBox, it.textBox) && overlapRatio(long.textBox, it.textBox) > 0.5;
  }));
}

export interface RankedText {
  /** Bounds of the text lines (not the estimated plate). */
  textBox: Box;
  /** Height of one text line, pixels. */
  lineHeight: number;
  /** The reading fits a plate format (a region template or a client format). */
  matched: boolean;
}

/** A line this many times as tall as another is a number beside small print. */
export const SMALL_PRINT = 1.3;

/** Drops text that sits just above or below a clearly taller reading: a plate's state name,
 * slogan or dealer frame, never its number (the number is the largest text on a plate). Only
 * a taller reading that fits a plate format counts: a taxi's roof number or a sign above a
 * plate is large too, and the plate under it is no slogan. */
export function dropSubordinateText<T extends RankedText>(items: readonly T[]): T[] {
  return items.filter((it) => !items.some((big) => {
    if (big === it || !big.matched || big.lineHeight < SMALL_PRINT * it.lineHeight) return false;
    const a = big.textBox;
    const b = it.textBox;
    // Text inside the taller reading's own box is one of its lines (a stacked candidate over the
    // number takes the number in), not text beside it: which reading stands is dedupe's call.
    if (overlapRatio(a, b) > 0.5) return false;
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
