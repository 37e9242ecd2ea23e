import { isFleetNumber, OTHER_CHOICE_FLOOR, trailerId } from '../../../domain/text/text-types.js';
import type { OcrType, TextLine, TextReading } from '../ocr.types.js';
import { overlapRatio } from '../../image/box-overlap.js';
import type { RawImage } from '../../image/decode.js';
import type { OcrEngine } from '../ocr-engine.js';
import { extentOf, placed, type Placed } from './line-geometry.js';
import { best } from './pick.js';
import { readBoat } from './boat-reader.js';
import { readContainer } from './container-reader.js';
import { readOdometer } from './odometer-reader.js';
import { readVin } from './vin-reader.js';

/** Detector input size per type, from bench:ocr: these types read as well at 960 as at 1280,
 * faster (container gate photos: 540 vs 671 ms median). Odometers and containers have their own readers. */
const DETECTOR_SIDE: Record<Exclude<OcrType, 'odometer' | 'shipping_container'>, number> = { vin: 960, trailer_id: 960, boat_reg_number: 960 };

/** Reads identifiers of one type from an image: all text lines, then the type's grammar picks,
 * corrects and validates. */
export async function readText(engine: OcrEngine, type: OcrType, image: RawImage): Promise<TextReading[]> {
  if (type === 'odometer') return readOdometer(engine, image);
  if (type === 'shipping_container') return readContainer(engine, image);
  const readOptions = { detLimitSide: DETECTOR_SIDE[type], minConfidence: 0.3, pack: true };
  const lines = placed(await engine.readLines(image, readOptions));
  switch (type) {
    case 'vin':
      return readVin(engine, image, lines, readOptions);
    case 'trailer_id':
      return best(wholerReadings(lines.flatMap((p) => {
        const value = trailerId(digitsBetweenDigits(p.line));
        return value ? [{ value, confidence: p.line.confidence, orientation: p.line.orientation, box: extentOf([p]), weight: trailerWeight(value, p) }] : [];
      })));
    case 'boat_reg_number':
      return readBoat(engine, image, lines);
  }
}

/** A line's text with each letter that stands between two digits made the digit the recogniser
 * also saw there, where it saw one: a fleet number's digits run unbroken (a stencilled 9 read as
 * g, 0.56, beside 9, 0.22). A letter it saw no digit in stays. */
export function digitsBetweenDigits(line: Pick<TextLine, 'text' | 'alternatives'>): string {
  const chars = [...line.text];
  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
  return chars.map((c, i) => {
    if (!/[A-Za-z]/.test(c) || !isDigit(chars[i - 1]) || !isDigit(chars[i + 1])) return c;
    const digit = (line.alternatives[i] ?? []).filter((o) => isDigit(o.char) && o.prob >= OTHER_CHOICE_FLOOR).sort((x, y) => y.prob - x.prob)[0];
    return digit?.char ?? c;
  }).join('');
}

/** How strongly a line reads as the trailer's number: its glyphs' size (a line's height, a
 * stack's width: not its length, or the longest line of words would win), its confidence, and
 * its shape (a line of words holding a digit is a weaker candidate, however large it is painted). */
function trailerWeight(value: string, p: Placed): number {
  return Math.min(p.h, p.w) * p.line.confidence * (isFleetNumber(value) ? 1 : 0.5);
}

type Weighed = TextReading & { weight: number; box: NonNullable<TextReading['box']> };

/** Where two boxes over one number were read, one holding the other's reading and more (a box
 * that stopped a character short, 10075 inside 510075), the shorter is a piece of the same
 * number, not another one: it goes, and the fuller reading takes its weight where heavier. */
function wholerReadings(found: Weighed[]): Weighed[] {
  const piecesOf = (f: Weighed) => found.filter((o) => o !== f && o.value.length < f.value.length && f.value.includes(o.value) && overlapRatio(f.box, o.box) >= 0.5);
  const pieces = new Set(found.flatMap(piecesOf));
  return found.filter((f) => !pieces.has(f)).map((f) => ({ ...f, weight: Math.max(f.weight, ...piecesOf(f).map((o) => o.weight)) }));
}
