import { quadBounds } from '../image/quad.js';
import type { Box, Quad } from './plate.types.js';

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
  return characterPitch(textBox, lineHeight, length) >= WIDE_PITCH;
}

/** The text's width per character, in line heights. */
const characterPitch = (textBox: Box, lineHeight: number, length: number) => (textBox.xmax - textBox.xmin) / (length * lineHeight);

export const WIDE_PITCH = 0.6;

/** A whole plate's box this much wider than tall is no North American plate (12 x 6 in, 2:1)
 * but a Brazilian (400 x 130 mm, 3.1:1) or European one (520 x 110 mm, 4.7:1): the middle of
 * 2 and 3.1 on a ratio scale. */
export const WIDE_PLATE_ASPECT = 2.5;

/** Where the plate detector boxed the plate the line was found in, its box's shape is a second
 * cue, and the two are weighed together: the line is wide when its pitch plus
 * ASPECT_WEIGHT x ln(aspect / WIDE_PLATE_ASPECT) reaches SHAPED_WIDE_PITCH. The pitch alone
 * misses a third of Brazil's grey plates, whose city line above the number makes a text box
 * tall (pitch 0.46-0.59); their boxes are 2.4 to 3.6 times as wide as tall. Chosen on the fit
 * half of the scenes (2026-12-02, regular mode, the labeled plates read at seven characters):
 * SHAPED_WIDE_PITCH is the middle of the pitch medians (US 0.42, Brazil 0.67, Europe 0.69), and
 * ASPECT_WEIGHT their distance over the distance of the shapes' log medians (2.2 and 3.1),
 * each scaled by its spread (US pitch up to 0.53, shapes from 1.6 to 3.1). */
export const SHAPED_WIDE_PITCH = 0.55;
export const ASPECT_WEIGHT = 0.25;

/**
 * wideCharacters for a candidate: where its line is the plate detector's box of the whole plate
 * (refining found no text line in it), the box's shape, since the plate's border and legends make
 * its height no character height; where the line was found in such a box, its pitch and the box's
 * shape together (SHAPED_WIDE_PITCH); else the text's pitch. Seven characters only, as there.
 */
export function wideFont(candidate: { lines: readonly Quad[]; wholePlate?: boolean; plateAspect?: number }, textBox: Box, lineHeight: number, length: number): boolean | undefined {
  if (length !== 7) return undefined;
  if (candidate.wholePlate) {
    const b = quadBounds(candidate.lines.flat());
    return b.x1 - b.x0 >= WIDE_PLATE_ASPECT * (b.y1 - b.y0);
  }
  if (candidate.plateAspect === undefined || !(candidate.plateAspect > 0) || lineHeight <= 0) return wideCharacters(textBox, lineHeight, length);
  return characterPitch(textBox, lineHeight, length) + ASPECT_WEIGHT * Math.log(candidate.plateAspect / WIDE_PLATE_ASPECT) >= SHAPED_WIDE_PITCH;
}
