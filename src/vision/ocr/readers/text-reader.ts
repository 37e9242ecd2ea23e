import { isFleetNumber, OTHER_CHOICE_FLOOR, trailerId } from '../../../domain/text/text-types.js';
import type { OcrType, TextLine, TextReading } from '../ocr.types.js';
import { overlapRatio, unionBox } from '../../image/box-overlap.js';
import type { RawImage } from '../../image/decode.js';
import type { OcrEngine } from '../ocr-engine.js';
import { type Point, quadBounds } from '../geometry.js';
import { extentOf, placed, type Placed } from './line-geometry.js';
import { best } from './pick.js';
import { readBoat } from './boat-reader.js';
import { readContainer } from './container-reader.js';
import { readOdometer } from './odometer-reader.js';
import { readVin } from './vin-reader.js';
import { joinedHalves } from './split-rows.js';

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
      return best(wholerReadings(withOverlapsJoined([...lines, ...(await joinedHalves(engine, image, lines))].flatMap(trailerCandidates))));
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

/** A line's trailer IDs: the whole line's, or where that is not shaped like a fleet number,
 * each word of the line that is, with three digits or more, in its place: a fleet name painted
 * on the number's row reads as one line with it (GREAT PLAINS E19490, PRIME 4521). A word
 * weighs less than a line that is a fleet number by itself. */
function trailerCandidates(p: Placed): Weighed[] {
  const text = digitsBetweenDigits(p.line);
  const value = trailerId(text);
  const whole: Weighed[] = value ? [{ value, confidence: p.line.confidence, orientation: p.line.orientation, box: extentOf([p]), weight: trailerWeight(value, p) }] : [];
  if (value && isFleetNumber(value)) return whole;
  const words = [...text.matchAll(/[A-Za-z0-9]+/g)].map((w) => {
    const runIn = RUN_INTO_WORD.exec(w[0]);
    return { text: runIn?.[1] ?? w[0], from: w.index, runIn: runIn !== null };
  });
  if (words.length < 2 && !words[0]?.runIn) return whole;
  const inWords = words.flatMap((w): Weighed[] => {
    const id = trailerId(w.text);
    if (!id || !isFleetNumber(id) || (id.match(/\d/g)?.length ?? 0) < 3) return [];
    const [from, to] = [w.from, w.from + w.text.length];
    const confidences = p.line.charConfidences.slice(from, to);
    const confidence = confidences.reduce((s, c) => s + c, 0) / Math.max(1, confidences.length);
    return [{ value: id, confidence, orientation: p.line.orientation, box: wordBox(p, from, to), weight: trailerWeight(id, p, confidence) * WORD_SHARE }];
  });
  // The line whole would hold its word, and so take the word's place as the fuller reading.
  return inWords.length > 0 ? inWords : whole;
}

/** A fleet number with a word run into its end (GPB8811CARRIER: no space read between the
 * number and a name painted after it on its row): the number. A fleet number ends in two
 * letters at most, so three or more after its digits begin another word. */
const RUN_INTO_WORD = /^([A-Za-z]{0,4}\d{2,})[A-Za-z]{3,}$/;

/** A fleet number's weight, as a word of a longer line, against a line of its own. */
const WORD_SHARE = 0.75;

/** Where the characters `from` to `to` (not included) of a flat line stand, from where the
 * recogniser saw them along the box's top edge; the line's extent where it did not say. */
function wordBox(p: Placed, from: number, to: number): Weighed['box'] {
  const spans = p.line.charSpans;
  const [a, b, c, d] = p.line.box;
  const edge = Math.hypot(b.x - a.x, b.y - a.y);
  if (!spans || spans.length !== p.line.text.length || p.line.orientation !== 'horizontal' || edge <= 0) return extentOf([p]);
  const at = (t: number, from: Point, to: Point): Point => ({ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t });
  // CTC marks a character where it is sure of it, about its middle: the word runs half a
  // character's pitch past its first and last marks.
  const mid = (k: number) => (spans[k]!.x0 + spans[k]!.x1) / 2;
  const half = to - from > 1 ? (mid(to - 1) - mid(from)) / (to - from - 1) / 2 : (spans[from]!.x1 - spans[from]!.x0) / 2;
  const [t0, t1] = [(mid(from) - half) / edge, (mid(to - 1) + half) / edge].map((t) => Math.min(1, Math.max(0, t)));
  const word = quadBounds([at(t0!, a, b), at(t1!, a, b), at(t1!, d, c), at(t0!, d, c)]);
  return extentOf([{ x: word.x0, y: word.y0, w: word.x1 - word.x0, h: word.y1 - word.y0 }]);
}

/** How strongly a line reads as the trailer's number: its glyphs' size (a line's height, a
 * stack's width: not its length, or the longest line of words would win), its confidence, and
 * its shape (a line of words holding a digit is a weaker candidate, however large it is painted;
 * so is a run of 1s alone, which is what ribs, seams and bars read as). */
function trailerWeight(value: string, p: Placed, confidence = p.line.confidence): number {
  return Math.min(p.h, p.w) * confidence * (isFleetNumber(value) ? 1 : 0.5) * (/^1+$/.test(value) ? 0.5 : 1);
}

type Weighed = TextReading & { weight: number; box: NonNullable<TextReading['box']> };

/** Characters two readings of one number must share where their boxes overlap to be joined. */
const MIN_SHARED = 2;

/** Two boxes over one number, each holding a part of it with the characters between in both
 * (a stacked W29649 on a tilted panel, boxed as `W29` and as `29649`, both read surely): the
 * first reading, then the second's characters past those they share, is a candidate too, boxed
 * around both and weighed as the heavier. Only along the reading's own direction (top to bottom
 * for a column, left to right for a line), the first part starting first and the second ending
 * last, and overlapping in the box. */
function withOverlapsJoined(found: Weighed[]): Weighed[] {
  const joined: Weighed[] = [];
  for (const a of found) {
    for (const b of found) {
      if (a === b || a.orientation !== b.orientation || overlapRatio(a.box, b.box) <= 0) continue;
      const [start, end] = a.orientation === 'vertical' ? ['ymin', 'ymax'] as const : ['xmin', 'xmax'] as const;
      if (a.box[start] >= b.box[start] || a.box[end] >= b.box[end]) continue;
      const shared = sharedRun(a.value, b.value);
      if (shared < MIN_SHARED) continue;
      const value = a.value + b.value.slice(shared);
      if (isFleetNumber(value)) joined.push({ value, confidence: Math.min(a.confidence, b.confidence), orientation: a.orientation, box: unionBox(a.box, b.box), weight: Math.max(a.weight, b.weight) });
    }
  }
  return [...found, ...joined];
}

/** The longest run that ends `first` and begins `second`, shorter than both. */
function sharedRun(first: string, second: string): number {
  for (let k = Math.min(first.length, second.length) - 1; k > 0; k--) if (first.endsWith(second.slice(0, k))) return k;
  return 0;
}

/** Where two boxes over one number were read, one holding the other's reading and more (a box
 * that stopped a character short, 10075 inside 510075), the shorter is a piece of the same
 * number, not another one: it goes, and the fuller reading takes its weight where heavier. */
function wholerReadings(found: Weighed[]): Weighed[] {
  const piecesOf = (f: Weighed) => found.filter((o) => o !== f && o.value.length < f.value.length && f.value.includes(o.value) && overlapRatio(f.box, o.box) >= 0.5);
  const pieces = new Set(found.flatMap(piecesOf));
  return found.filter((f) => !pieces.has(f)).map((f) => ({ ...f, weight: Math.max(f.weight, ...piecesOf(f).map((o) => o.weight)) }));
}
