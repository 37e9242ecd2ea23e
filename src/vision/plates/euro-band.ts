import type { RawImage } from '../image/decode.js';
import type { Box } from './plate.types.js';

/**
 * The blue band at the left end of a European number plate (the EU's common format, which UK
 * plates carry too): a strip as tall as the plate and about 0.6 character heights
 * wide, holding the ring of stars over the country's sign, left of the number and apart from it
 * by the plate's white. No North American or Brazilian plate has one (a Mercosur plate's band
 * runs along its top), so where it is seen a number is European whatever its letters fit: a
 * chosen German number (BIMMIAN) fits only the US generic shape, a Czech one (WSQ 3021) Brazil's.
 */

/** How far left of the number the band is looked for, in line heights: the band's width plus
 * the gap to the first character, which on German plates holds the seals (about 1.2 heights). */
export const BAND_REACH = 1.9;
/** The band's width in line heights: 40-50 mm against 75 mm characters is 0.55-0.65; seen at an
 * angle or softened by the camera it may look from about half to a little over that. */
export const BAND_MIN_WIDTH = 0.25;
export const BAND_MAX_WIDTH = 1.0;
/** A column is the band's when this share of its pixels over the number's middle rows is blue
 * (the stars and the sign's letters take the rest); the plate's white beside it stays under
 * PLAIN_SHARE. */
export const BAND_SHARE = 0.55;
export const PLAIN_SHARE = 0.25;
/** How far in from a plate crop's left edge its band may begin, in line heights (the plate's
 * border and a loose crop's margin; New Jersey's memorial shield stands 0.43 in). */
const CROP_EDGE = 0.3;
/** A number on blue (a blue plate, a blue sticker behind the line) is not a white plate. */
const NUMBER_BLUE_SHARE = 0.15;

/** Blue as a band prints it under daylight, shade and headlights: blue well above red and above
 * green (the band's blue is no teal), and saturated (red under 60% of blue: silver paint under a
 * blue sky reads about 133, 154, 183, which is blue-grey, not blue), in any brightness a camera
 * keeps from black. */
export function isBandBlue(r: number, g: number, b: number): boolean {
  return b >= 40 && b - r >= 40 && b - g >= 15 && r <= 0.6 * b;
}

/** Share of blue pixels of column `x` between rows `y0` and `y1` (exclusive). */
function columnBlue(image: RawImage, x: number, y0: number, y1: number): number {
  const { data, width } = image;
  let blue = 0;
  for (let y = y0; y < y1; y++) {
    const i = 3 * (y * width + x);
    if (isBandBlue(data[i]!, data[i + 1]!, data[i + 2]!)) blue++;
  }
  return blue / Math.max(1, y1 - y0);
}

/**
 * The band left of a number whose text spans `textBox` (characters `lineHeight` tall), or null.
 * Columns are judged on the number's middle rows (a Mercosur band above the number stays out);
 * the band is a run of blue columns within BAND_REACH of the number, BAND_MIN_WIDTH to
 * BAND_MAX_WIDTH wide, with plain columns on both sides inside the photo (a blue car body beside
 * a white plate runs on past the reach, a band cut by the photo's edge cannot be told from one),
 * but for a plate crop, whose band may start at the picture's left edge.
 * Grey photos (one channel) have none.
 */
export function findEuroBand(image: RawImage, textBox: Box, lineHeight: number): Box | null {
  if (image.channels !== 3 || lineHeight < 6) return null;
  const h = lineHeight;
  const cy = (textBox.ymin + textBox.ymax) / 2;
  const y0 = Math.max(0, Math.round(cy - 0.4 * h));
  const y1 = Math.min(image.height, Math.round(cy + 0.4 * h));
  const right = Math.min(image.width, Math.round(textBox.xmin));
  const reach = Math.round(textBox.xmin - BAND_REACH * h);
  // A plate crop starts at the plate's edge: where the reach runs out of the picture, its band
  // may touch the picture's edge.
  const crop = reach < 0 && fillsWidth(image, textBox);
  const left = crop ? 0 : reach;
  if (left < 0 || y1 - y0 < 4 || right <= left) return null;
  const shares: number[] = [];
  for (let x = left; x < right; x++) shares.push(columnBlue(image, x, y0, y1));
  // From the number leftwards: plain white, then the band, then plain again.
  let i = shares.length - 1;
  while (i >= 0 && shares[i]! < BAND_SHARE) i--;
  if (i < 0) return null;
  const bandRight = i;
  while (i >= 0 && shares[i]! >= PLAIN_SHARE) i--;
  if (i < 0 && !crop) return null;
  const bandLeft = i + 1;
  // In a crop the band is the plate's left end: blue further in is artwork (New Jersey's blue
  // shield in its white disc, left of the number).
  if (crop && bandLeft > CROP_EDGE * h) return null;
  const width = bandRight - bandLeft + 1;
  if (width < BAND_MIN_WIDTH * h || width > BAND_MAX_WIDTH * h) return null;
  if (numberBlue(image, textBox, y0, y1) > NUMBER_BLUE_SHARE) return null;
  // The band ends with the plate, about 0.73 line heights above and below the number's middle
  // (110 mm against 75 mm characters); blue paint beside a plate goes on past it.
  const band = { x0: left + bandLeft, x1: left + bandRight + 1 };
  if (blueOutside(image, band, cy - BEYOND_PLATE[1] * h, cy - BEYOND_PLATE[0] * h) >= PLAIN_SHARE) return null;
  if (blueOutside(image, band, cy + BEYOND_PLATE[0] * h, cy + BEYOND_PLATE[1] * h) >= PLAIN_SHARE) return null;
  return { xmin: band.x0, ymin: y0, xmax: band.x1, ymax: y1 };
}

/** Whether the number spans most of the picture's width, as in a crop of its plate (a number
 * of seven characters at 0.6 heights each is 0.8 of a European plate's width). */
function fillsWidth(image: RawImage, textBox: Box): boolean {
  return textBox.xmax - textBox.xmin >= 0.5 * image.width;
}

/** Rows beyond the plate's top and bottom edges, in line heights from the number's middle. */
const BEYOND_PLATE = [0.95, 1.3] as const;

/** Share of blue pixels in the band's columns between rows `ya` and `yb` (clipped to the photo:
 * a plate crop has no rows beyond its plate, which says nothing against a band). */
function blueOutside(image: RawImage, band: { x0: number; x1: number }, ya: number, yb: number): number {
  const y0 = Math.max(0, Math.round(ya));
  const y1 = Math.min(image.height, Math.round(yb));
  if (y1 <= y0) return 0;
  let sum = 0;
  for (let x = band.x0; x < band.x1; x++) sum += columnBlue(image, x, y0, y1);
  return sum / (band.x1 - band.x0);
}

/** Share of blue pixels over the number's middle rows, every fourth column. */
function numberBlue(image: RawImage, textBox: Box, y0: number, y1: number): number {
  const x0 = Math.max(0, Math.round(textBox.xmin));
  const x1 = Math.min(image.width, Math.round(textBox.xmax));
  let sum = 0;
  let n = 0;
  for (let x = x0; x < x1; x += 4, n++) sum += columnBlue(image, x, y0, y1);
  return n ? sum / n : 0;
}
