import type { CharSpan } from '../ctc-decode.js';

/** Where each character sits along the read: the middle of its span. */
export function spanCentres(spans: readonly CharSpan[]): number[] {
  return spans.map((s) => (s.x0 + s.x1) / 2);
}

/** The distance from each centre to the next. */
export function stepsBetween(centres: readonly number[]): number[] {
  return centres.slice(1).map((c, i) => c - centres[i]!);
}

/** The middle value (the upper one of an even count); the input is not reordered. */
export function medianOf(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
