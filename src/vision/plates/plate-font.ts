import type { Box } from './plate.types.js';

/**
 * Whether a seven-character number is drawn in a wide font, as Brazil's grey plates and
 * Europe's are, rather than a North American plate's: the text's width over seven line heights.
 * Seven characters is where the formats of both fit the same number (ABC1234: Texas, New York
 * and Brazil) and where the width tells them apart: on the plates Vigil reads (2026-11-26) it is
 * 0.42 in the median on scenes-us (none of 60 at 0.53 or more) and 0.50 on the US crops (2 of 107
 * at 0.6 or more), against 0.63 on scenes-br (35 of 56 at 0.6 or more) and 0.67 on scenes-eu.
 * Shorter US numbers spread over the same plate as widely as a European font (six characters on
 * the US crops: median 0.55), so for any other length this says nothing (undefined).
 */
export function wideCharacters(textBox: Box, lineHeight: number, length: number): boolean | undefined {
  if (length !== 7 || lineHeight <= 0) return undefined;
  return (textBox.xmax - textBox.xmin) / (length * lineHeight) >= WIDE_PITCH;
}

export const WIDE_PITCH = 0.6;
