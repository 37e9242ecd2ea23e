import type { Box } from '../../services/recognition/plate-reader.port.js';

/**
 * Whether a number's characters are drawn wide for their height: the text's width over its
 * length times the line height. North American plates use tall, narrow fonts; Brazil's and
 * Europe's are wide. On the plates Vigil reads in plates-scenes (2026-11-26) this is 0.41 in the
 * median on scenes-us (95% under 0.53) against 0.63 on scenes-br and 0.67 on scenes-eu, so it
 * tells apart numbers whose letters and digits fit both (ABC1234 in Texas and in Brazil).
 */
export function hasWideCharacters(textBox: Box, lineHeight: number, length: number): boolean {
  if (length === 0 || lineHeight <= 0) return false;
  return (textBox.xmax - textBox.xmin) / (length * lineHeight) >= WIDE_PITCH;
}

/** Between the narrow fonts' 95th percentile (0.53) and the wide ones' first quartile (0.56). */
export const WIDE_PITCH = 0.55;
