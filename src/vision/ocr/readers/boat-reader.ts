import { boatRegistration, stateNumberWithoutLetters } from '../../../domain/text/text-types.js';
import type { RawImage } from '../../image/decode.js';
import { padQuad, type Quad, quadSize, widenQuad } from '../../image/quad.js';
import type { OcrEngine } from '../ocr-engine.js';
import type { TextReading } from '../ocr.types.js';
import { extentOf, meanConfidence, neighbourGroups, type Placed } from './line-geometry.js';
import { best } from './pick.js';
import { readRow } from './row-reread.js';

type Weighed = TextReading & { weight: number; group: Placed[] };

/** Hull numbers from an image's text lines: each group of up to three neighbouring lines read as
 * one mark (boatRegistration), the heaviest kept (boatWeight). Every US state number ends in
 * letters (33 CFR 174); where the heaviest reads as a state code and digits alone, the text
 * detector left the letters unboxed (a lone letter past a gap, OR 937 U), so its row is read
 * again, lengthened to the right, and taken where it ends in them. */
export async function readBoat(engine: OcrEngine, image: RawImage, lines: Placed[]): Promise<TextReading[]> {
  const found = neighbourGroups(lines, 3).flatMap((group): Weighed[] => {
    const value = boatRegistration(group.map((p) => p.line.text).join(' '));
    return value ? [{ value, confidence: meanConfidence(group), orientation: group[0]!.line.orientation, box: extentOf(group), weight: boatWeight(value, group), group }] : [];
  }).sort((a, b) => b.weight - a.weight);
  const top = found[0];
  const stem = top && stateNumberWithoutLetters(top.value);
  if (stem) {
    const whole = await withLetters(engine, image, top, stem);
    if (whole) return best([whole]);
  }
  return best(found);
}

/** How strongly a group of lines reads as the hull number: a US state number (state code,
 * digits, letters) counts twice, whole however many boxes it was read in (the state code is
 * often boxed apart: WI and 2589V); any other mark counts less for each line joined into it,
 * which keeps unrelated words out of it. */
function boatWeight(value: string, group: Placed[]): number {
  return /^[A-Z]{2} \d/.test(value) ? 2 * meanConfidence(group) : meanConfidence(group) / group.length;
}

/** How far past a number's last digit its letters can stand, in its character pitches: a space
 * and two wide letters. */
const SUFFIX_REACH = 3.5;
/** Above and below the row read again, in its heights. */
const ROW_PAD = 0.15;

/** The row of a group's lines from the first one's left end to past the last one's right end
 * (SUFFIX_REACH), along their own axis. */
function suffixRow(group: readonly Placed[], value: string): Quad {
  const [first, last] = [group[0]!.line.box, group[group.length - 1]!.line.box];
  const row: Quad = [first[0], last[1], last[2], first[3]];
  const { width, height } = quadSize(row);
  const pitch = width / Math.max(1, value.replace(/ /g, '').length) / Math.max(1, height);
  return padQuad(widenQuad(row, 0, SUFFIX_REACH * pitch), 0, ROW_PAD);
}

/** `found`, a state code and digits (`stem`), with the letters after it, read from its row
 * lengthened to the right. Only the letters are taken from that look, and only where it reads the
 * same digits just before them: the code and digits were read in the detector's own boxes, often
 * in pieces each read whole (an outlined MN read as MT across the whole row). */
async function withLetters(engine: OcrEngine, image: RawImage, found: Weighed, { state, digits }: { state: string; digits: string }): Promise<Weighed | undefined> {
  const d = await readRow(engine, image, suffixRow(found.group, found.value));
  const letters = d && new RegExp(`(?<!\\d)${digits} ?([A-Z]{1,2})(?![A-Z0-9])`).exec(d.text.toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim())?.[1];
  return letters ? { ...found, value: `${state} ${digits} ${letters}`, confidence: Math.min(found.confidence, d.confidence) } : undefined;
}
