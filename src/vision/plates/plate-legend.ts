import type { RawImage } from '../image/decode.js';
import { quadSize } from '../image/quad.js';
import type { Box } from './plate.types.js';
import { regionFromLegend } from '../../domain/plates/plate-legends.js';
import { countryOfBandSign, europeanRegion, isBandedCountry } from '../../domain/plates/european-plates.js';
import { findEuroBand } from './euro-band.js';
import { cropRect } from '../image/warp.js';
import { bestRegionFit, type RegionScope } from '../../domain/plates/region-fit.js';
import { countryOf } from '../../domain/plates/region-templates.js';
import type { DetectedText } from './candidate-finder.js';
import { overlapRatio } from '../image/box-overlap.js';
import { textBounds } from './plate-box.js';
import { padQuad } from '../image/quad.js';
import { type CropRecognizer, cutLine } from './plate-reread.js';
import type { Quad } from './plate.types.js';

/** A plate as read: its number and where its text stands. */
interface ReadPlate { plate: string; textBox: Box; lineHeight: number }

/** Legend lines read per plate at most, tallest first. */
const MAX_LEGEND_LINES = 3;
/** Lines less tall than this (pixels) are too small to read a word from. */
const MIN_LEGEND_HEIGHT = 8;

/**
 * The detected lines that may be a plate's legend, tallest first: above or below its number (a
 * state name sits up to about two line heights above it, a slogan below), no farther out
 * sideways than a third of its width, no taller than the number and wider than tall (a word, not
 * a glyph), and not the number itself. The same line found by two detection passes counts once.
 */
export function legendLines(texts: readonly DetectedText[], plate: { textBox: Box; lineHeight: number }): Quad[] {
  const t = plate.textBox;
  const h = plate.lineHeight;
  const side = 0.3 * (t.xmax - t.xmin);
  const near = texts
    .map((d) => ({ quad: d.quad, box: textBounds([d.quad]), size: quadSize(d.quad) }))
    .filter(({ box, size }) => {
      const cx = (box.xmin + box.xmax) / 2;
      const cy = (box.ymin + box.ymax) / 2;
      return cx >= t.xmin - side && cx <= t.xmax + side && cy >= t.ymin - 2.5 * h && cy <= t.ymax + 2 * h
        && size.height <= 1.05 * h && size.height >= MIN_LEGEND_HEIGHT && size.width >= 1.2 * size.height
        && overlapRatio(box, t) <= 0.3;
    })
    .sort((a, b) => b.size.height - a.size.height);
  const kept: typeof near = [];
  for (const line of near) if (kept.every((k) => overlapRatio(k.box, line.box) <= 0.5)) kept.push(line);
  return kept.slice(0, MAX_LEGEND_LINES).map((l) => l.quad);
}

/** Numbers this short (a low or chosen number: 16FF, 2515) say nothing of their country. */
const SHORT_NUMBER = 4;

/** Whether a legend's region may name this plate: the client named no region or named its
 * country, and the number fits a format of that country or is too short to have one (a BC
 * number under a dealer frame reading VICTORIA stays Canadian). */
function fits(plate: ReadPlate, region: string, named: readonly string[]): boolean {
  const country = countryOf(region);
  if (named.length > 0 && !named.some((n) => countryOf(n) === country)) return false;
  return plate.plate.length <= SHORT_NUMBER || bestRegionFit(plate.plate.toUpperCase(), { regions: [country], strict: true }) !== null;
}

/**
 * The region each plate's legend names (`us-ca` for CALIFORNIA over the number), or undefined
 * where no line near it reads as one. The lines are read tallest first (a state's name is set
 * larger than a sticker, a county or a dealer's frame), one round per line: a plate whose legend
 * was found is not read again. Each round reads the lines of every plate still open in one call,
 * in the recogniser's whole character set (legends are words in mixed case).
 */
export async function readLegendRegions(image: RawImage, plates: readonly ReadPlate[], texts: readonly DetectedText[], ocr: CropRecognizer, named: readonly string[]): Promise<Array<string | undefined>> {
  const lines = plates.map((p) => legendLines(texts, p));
  const found: Array<string | undefined> = plates.map(() => undefined);
  for (let round = 0; round < MAX_LEGEND_LINES; round++) {
    const open = plates.map((_, i) => i).filter((i) => found[i] === undefined && lines[i]![round] !== undefined);
    if (open.length === 0) break;
    const read = await ocr.recognizeCrops(open.map((i) => cutLine(image, padQuad(lines[i]![round]!, 0.1, 0.05))));
    open.forEach((i, k) => {
      const region = regionFromLegend(read[k]!.text);
      if (region !== undefined && fits(plates[i]!, region, named)) found[i] = region;
    });
  }
  return found;
}

/** Where a European band's sign stands, in line heights from the number's middle: under the ring
 * of stars, in the band's lower third (the plate's bottom edge is about 0.73 below). */
const SIGN_ROWS = [0.05, 0.72] as const;

const SIGN_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A sign is a letter or three, often a few pixels tall: each must be read this surely. On the
 * dev European photos (2026-12-02) 4 of the 23 bands found were read so (D three times, GB), all
 * rightly; the unsure ones included a blurred SK read as M at 0.25. */
const SURE_SIGN_LETTER = 0.8;

/** The band's sign under its stars (BAND_SIGN_COUNTRIES), cut from the photo. */
export function bandSignCrop(image: RawImage, band: Box, plate: { textBox: Box; lineHeight: number }): RawImage {
  const h = plate.lineHeight;
  const cy = (plate.textBox.ymin + plate.textBox.ymax) / 2;
  const pad = 0.15 * (band.xmax - band.xmin);
  const y0 = cy + SIGN_ROWS[0] * h;
  return cropRect(image, band.xmin - pad, y0, band.xmax - band.xmin + 2 * pad, (SIGN_ROWS[1] - SIGN_ROWS[0]) * h);
}

/** The country each band's sign names (undefined where a plate has no band, or its sign does
 * not read as one), all bands read in one call, in capital letters. */
export async function readBandSigns(image: RawImage, plates: ReadonlyArray<{ band: Box | null; textBox: Box; lineHeight: number }>, ocr: CropRecognizer): Promise<Array<string | undefined>> {
  const banded = plates.flatMap((p, i) => (p.band ? [i] : []));
  const found: Array<string | undefined> = plates.map(() => undefined);
  if (banded.length === 0) return found;
  const read = await ocr.recognizeCrops(banded.map((i) => bandSignCrop(image, plates[i]!.band!, plates[i]!)), { charset: SIGN_LETTERS });
  banded.forEach((i, k) => {
    const { text, charConfidences } = read[k]!;
    if (charConfidences.length > 0 && charConfidences.every((c) => c >= SURE_SIGN_LETTER)) found[i] = countryOfBandSign(text);
  });
  return found;
}

/**
 * Each plate's region as the plate itself shows it, or undefined where it shows none. A plate
 * with a European band (euro-band.ts) is European: the country of its sign, read from the band
 * (readBandSigns) or found as a line of its own among its legends, else the banded country whose
 * format its number fits (europeanRegion). Any other plate takes the region its legend names.
 * Signs and legends are read only where `readText` (the mode reads legends); the band is seen
 * in every mode. A client that keeps strictly to regions none of which is banded keeps them.
 */
export async function regionsOnPlates(image: RawImage, plates: readonly ReadPlate[], texts: readonly DetectedText[], ocr: CropRecognizer, scope: RegionScope, readText: boolean): Promise<Array<string | undefined>> {
  const bandsCount = !scope.strict || scope.regions.some((r) => isBandedCountry(countryOf(r)));
  const banded = plates.map((p) => ({ ...p, band: bandsCount ? findEuroBand(image, p.textBox, p.lineHeight) : null }));
  const signs = readText ? await readBandSigns(image, banded, ocr) : [];
  // A sign read says all a legend could: only the other plates' legends are read.
  const open = readText ? plates.flatMap((_, i) => (signs[i] ? [] : [i])) : [];
  const legends: Array<string | undefined> = plates.map(() => undefined);
  if (open.length > 0) {
    const read = await readLegendRegions(image, open.map((i) => plates[i]!), texts, ocr, scope.regions);
    open.forEach((i, k) => (legends[i] = read[k]));
  }
  return banded.map(({ band, plate }, i) => {
    const legend = legends[i];
    if (!band) return legend;
    return europeanRegion(plate.toUpperCase(), scope, signs[i] ?? (legend && isBandedCountry(legend) ? legend : undefined));
  });
}
