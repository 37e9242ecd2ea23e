import type { TextReading } from '../ocr.types.js';

/** The heaviest candidate reading, without its weight. */
export function best(found: Array<TextReading & { weight: number }>): TextReading[] {
  const top = found.sort((a, b) => b.weight - a.weight)[0];
  return top ? [{ value: top.value, confidence: top.confidence, orientation: top.orientation, ...(top.box ? { box: top.box } : {}) }] : [];
}
