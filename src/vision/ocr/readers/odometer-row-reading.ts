/**
 * One odometer row read three ways (the first pass, the box again digits only, a crop widened to
 * the right) made into one reading, pure: what each read gets wrong (a window edge read as a 1,
 * a unit letter forced to a digit, scale labels beside the drum, a wheel passed over) and how
 * the reads settle it. Which row is the odometer is odometer-rows.ts's question.
 */
import type { CharSpan } from '../ctc-decode.js';
import { medianOf, spanCentres, stepsBetween } from './char-spacing.js';
import { isScaleNumber } from './odometer-rows.js';

/**
 * Cleans a digit-only reading of the odometer row: a scale label the box swallowed on the right
 * ("01755270": the 70 of the dial) goes when the reading is longer than an odometer shows
 * (8 digits and more).
 */
export function cleanRowDigits(digits: string): string | undefined {
  const d = digits.length >= 8 && /[1-9]0$/.test(digits) ? digits.slice(0, -2) : digits;
  return d.length >= 3 && d.length <= 8 ? d : undefined;
}

/**
 * Chooses between the row read as the detector boxed it and read from a crop widened to the
 * right: the wider one wins only when it is the same digits plus one (the tenths wheel the box
 * left out), so a neighbour caught by the wider crop cannot change the digits already read.
 */
export function withTenths(boxed: string | undefined, widened: string | undefined): string | undefined {
  if (!boxed) return widened && widened.length <= 7 ? widened : undefined;
  if (widened && widened.length === boxed.length + 1 && widened.startsWith(boxed)) return widened;
  return boxed;
}

/** One reading of the row: its digits, how sure the recogniser was of each, and where each was
 * seen in the crop (see DecodedText.charSpans). */
export interface DigitRead {
  text: string;
  confidences?: readonly number[];
  spans?: readonly CharSpan[];
}

/** The window edge read as a digit is far less sure than a printed one. */
const WINDOW_EDGE_MAX_CONFIDENCE = 0.85;
/** ...and closer to the first drum digit than the drums are to each other. */
const WINDOW_EDGE_MAX_GAP = 0.75;

/**
 * Drops a leading "1" that is the edge of the drum window: an unsure 1 where the crop starts
 * (the detector's box begins at the window), squeezed against the first digit, closer to it than
 * the digits are spaced along the drum. A printed leading 1 is read surely and sits one drum
 * pitch from the next digit; an LCD's narrow 1 inside the box is not at its edge.
 */
export function withoutWindowEdge(read: DigitRead): DigitRead {
  const { text, confidences, spans } = read;
  if (text[0] !== '1' || text.length < 4 || !confidences || !spans || spans.length !== text.length) return read;
  if ((confidences[0] ?? 1) >= WINDOW_EDGE_MAX_CONFIDENCE) return read;
  const centres = spanCentres(spans);
  // The drum's pitch, from the steps after the one in question.
  const pitch = medianOf(stepsBetween(centres).slice(1));
  if (spans[0]!.x0 > pitch * 0.5 || centres[1]! - centres[0]! >= pitch * WINDOW_EDGE_MAX_GAP) return read;
  return { text: text.slice(1), confidences: confidences.slice(1), spans: spans.slice(1) };
}

/** Below this, a digit of a digits-only read is a glyph that is no digit at all. */
const FORCED_MAX_CONFIDENCE = 0.05;

/**
 * Drops a last digit the digits-only read all but ruled out: a unit letter inside the box
 * ("69.8 km" read 6981, the k forced to a 1 at almost no confidence). Even a half-turned tenths
 * wheel reads far surer than that.
 */
export function withoutForcedLast(read: DigitRead): DigitRead {
  const { text, confidences, spans } = read;
  if (text.length < 4 || !confidences || confidences.length !== text.length || confidences.at(-1)! >= FORCED_MAX_CONFIDENCE) return read;
  return { text: text.slice(0, -1), confidences: confidences.slice(0, -1), spans: spans?.slice(0, -1) };
}

/** A neighbour stands apart when its gap to the drum is this many times the drum's widest step. */
const APART = 1.6;

/**
 * Drops a gauge scale label (20, 30 ...) the box took in beside the drum: a round number at
 * either end standing apart from the rest, its gap wider than any step between the rest's digits
 * ("20 012565" is 012565). The widest step, not a typical one: an LCD's narrow 1s make its
 * digits unevenly spaced ("19 15 10 km" keeps its 10).
 */
export function withoutScaleNeighbours(read: DigitRead): DigitRead {
  const { text, confidences, spans } = read;
  if (!spans || spans.length !== text.length || text.length < 6) return read;
  const steps = stepsBetween(spanCentres(spans));
  const widest = (from: number, to: number) => Math.max(...steps.slice(from, to));
  const apart = (gap: number, restFrom: number, restTo: number) => restTo - restFrom >= 3 && gap > APART * widest(restFrom, restTo);
  let from = 0;
  let to = text.length;
  for (const k of [2, 3]) {
    // A label of k digits on the left: its gap is steps[k - 1]; the rest's steps start at k.
    if (isScaleNumber(text.slice(0, k)) && apart(steps[k - 1]!, k, steps.length)) from = k;
    // On the right: its gap is steps[n - k - 1]; the rest's steps end before it.
    const n = text.length;
    if (isScaleNumber(text.slice(n - k)) && apart(steps[n - k - 1]!, from, n - k - 1)) to = n - k;
  }
  if ((from === 0 && to === text.length) || to - from < 4) return read;
  return { text: text.slice(from, to), confidences: confidences?.slice(from, to), spans: spans.slice(from, to) };
}

/** A wheel the digits-only read passed over leaves a gap of about two drum pitches between its
 * neighbours; a much wider one parts a label from the number (ODO 183240). */
const MISSED_WHEEL_GAP = 1.5;
const MAX_MISSED_WHEEL_GAP = 2.5;
/** A last digit only the first pass saw counts when it was this sure: a wheel printed plainly,
 * not one half turned. */
const SURE_FIRST_PASS_END = 0.9;

/**
 * The digits-only read with the one digit it passed over that the first pass saw: forced to
 * digits, the recogniser skips a glyph that looks like no digit (a drum 7 half turned, read "/"
 * by the first pass; a dim leading 0) rather than misread it. Where the skipped wheel was shows
 * in the read's spacing: inside the row, a gap of about two drum pitches between its neighbours;
 * at the start, room for a wheel before the first digit (not for a 1: the first pass reads the
 * drum window's edge as one). At the end only a digit the first pass was sure of (a tenths wheel
 * at the crop's edge): a half-turned one there is as often left out of the reading. Applies when
 * the first pass is the read with exactly one digit more, before or after `clean` (a window edge
 * only one of them read); the digit gets the first pass's confidence (0 when unknown: unsure).
 */
export function withFirstPassDigit(first: DigitRead, read: DigitRead, clean: (r: DigitRead) => DigitRead = (r) => r): DigitRead {
  for (const r of [read, clean(read)]) {
    const merged = insertedDigit(first, r);
    if (merged) return r === read ? clean(merged) : merged;
  }
  return clean(read);
}

function insertedDigit(first: DigitRead, read: DigitRead): DigitRead | undefined {
  const { text, confidences, spans } = read;
  if (first.text.length !== text.length + 1 || text.length < 3 || !confidences || !spans || spans.length !== text.length) return undefined;
  const centres = spanCentres(spans);
  const steps = stepsBetween(centres);
  const pitch = medianOf(steps);
  // Where the skipped wheel's centre would be, if the read leaves room for one there.
  const firstConfidence = (k: number) => (first.confidences?.length === first.text.length ? first.confidences[k]! : 0);
  const at = (k: number) => {
    if (k === 0) return first.text[0] !== '1' && centres[0]! >= MISSED_WHEEL_GAP * pitch ? centres[0]! - pitch : undefined;
    if (k === text.length) return firstConfidence(k) >= SURE_FIRST_PASS_END ? centres[k - 1]! + pitch : undefined;
    const gap = steps[k - 1]! / pitch;
    return gap >= MISSED_WHEEL_GAP && gap <= MAX_MISSED_WHEEL_GAP ? (centres[k - 1]! + centres[k]!) / 2 : undefined;
  };
  for (let k = 0; k <= text.length; k++) {
    const centre = at(k);
    if (centre === undefined || !/\d/.test(first.text[k]!) || first.text.slice(0, k) + first.text.slice(k + 1) !== text) continue;
    const half = medianOf(spans.map((s) => s.x1 - s.x0)) / 2;
    return {
      text: first.text,
      confidences: [...confidences.slice(0, k), firstConfidence(k), ...confidences.slice(k)],
      spans: [...spans.slice(0, k), { x0: centre - half, x1: centre + half }, ...spans.slice(k)],
    };
  }
  return undefined;
}

/** A last digit read at least this surely is a wheel wherever it stands. */
const SURE_PAST_DRUM = 0.6;

/**
 * Drops a last digit the digits-only read saw past the drum's end: forced to digits, the
 * recogniser reads the dial's ticks beyond the window as one more unsure digit. Wheels stand side
 * by side at the drum's pitch, so a glyph with room for a wheel between it and the digit before
 * (MISSED_WHEEL_GAP pitches) is past the last wheel, unless the read passed a wheel over there:
 * the first pass, free to read any glyph, would then have read one in that room, so none of its
 * characters may stand in it. Its silence counts only inside its box, which ends at `firstEnd`:
 * past it (a tenths wheel the box left out) it read nothing anyway. `first` needs its spans; all
 * places are in the read's crop.
 */
export function withoutGlyphPastDrum(first: DigitRead, read: DigitRead, firstEnd: number): DigitRead {
  const { text, confidences, spans } = read;
  const n = text.length;
  if (n < 4 || !confidences || confidences.length !== n || !spans || spans.length !== n || confidences[n - 1]! >= SURE_PAST_DRUM) return read;
  if (!first.spans || first.spans.length !== first.text.length) return read;
  const centres = spanCentres(spans);
  // The pitch of the digits before the glyph in question.
  const room = MISSED_WHEEL_GAP * medianOf(stepsBetween(centres.slice(0, -1)));
  const last = centres[n - 1]!;
  if (last > firstEnd || last - centres[n - 2]! < room || Math.max(...spanCentres(first.spans)) > last - room) return read;
  return { text: text.slice(0, -1), confidences: confidences.slice(0, -1), spans: spans.slice(0, -1) };
}

/** How much surer the first pass must be of a digit to overrule the digits-only read. */
const FIRST_PASS_MARGIN = 0.15;

/**
 * Per character, the first pass's digit where it was clearly surer than the digits-only read of
 * the same digits: forced to digits, an unclear tenths wheel (a 1 on a white drum) can fall to
 * whichever digit it resembles least badly. Only a read of the same length is aligned.
 */
export function surerDigits(first: DigitRead, read: DigitRead): DigitRead {
  const fc = first.confidences;
  const rc = read.confidences;
  if (!fc || !rc || first.text.length !== read.text.length || fc.length !== first.text.length) return read;
  const firstWins = (i: number) => /\d/.test(first.text[i]!) && (fc[i] ?? 0) > (rc[i] ?? 0) + FIRST_PASS_MARGIN;
  const text = [...read.text].map((c, i) => (firstWins(i) ? first.text[i]! : c)).join('');
  return { ...read, text, confidences: rc.map((c, i) => (firstWins(i) ? fc[i]! : c)) };
}

/** The wheel past a read's last digit that only the first pass saw (see passedOverWheel): the
 * first pass's digit and where it stands, in the read's crop. */
export interface PassedOverWheel {
  digit: string;
  centre: number;
}

/**
 * The wheel one drum pitch past the read's last digit that the first pass read and the
 * digits-only read passed over: a tenths wheel half turned shows the lower part of one digit
 * and the upper part of the next, which the recogniser forced to digits reads as neither, while
 * the first pass reads it as one of the two, unsurely (a first pass sure of it has put it back:
 * withFirstPassDigit). Its digit is only a hint: a second look at the wheel decides (see
 * halfTurnedTenths). The first pass must read the read's digits before it (a leading window edge
 * aside), its last character centred between half a pitch and MISSED_WHEEL_GAP pitches past
 * the read's last: the next wheel, not the same one nor one further.
 */
export function passedOverWheel(first: DigitRead, read: DigitRead): PassedOverWheel | undefined {
  const { text, spans } = read;
  if (text.length < 4 || text.length >= 8 || !spans || spans.length !== text.length) return undefined;
  if (!first.spans || first.spans.length !== first.text.length || first.text.length < text.length + 1) return undefined;
  const digit = first.text.at(-1)!;
  if (!/\d/.test(digit) || !first.text.slice(0, -1).endsWith(text)) return undefined;
  const pitch = medianOf(stepsBetween(spanCentres(spans)));
  const centre = spanCentres(first.spans).at(-1)!;
  const step = (centre - spanCentres(spans).at(-1)!) / pitch;
  return step >= 0.5 && step <= MISSED_WHEEL_GAP ? { digit, centre } : undefined;
}

export interface RowReading {
  value: string;
  /** The digits-only read the value was taken from, cleaned as the value was, and the other
   * crop's: absent when the first pass decided. */
  read?: DigitRead;
  other?: DigitRead;
  /** The widened crop added the tenths. */
  widened?: boolean;
  /** A wheel past the value's last digit that only the first pass saw (see passedOverWheel). */
  passedOver?: PassedOverWheel;
}

/**
 * The row's reading from its three reads: the first pass (any character), the box read again
 * digits only, and a crop widened to the right (all three start at the box's corner; the box
 * ends at `firstEnd`). When the first pass shows that the box swallowed a scale label
 * ("01989070"), the digits-only read carries it too, as whatever digits the label's glyphs were
 * forced into ("0198900"): the first pass without the label is the reading.
 * Otherwise a unit letter forced to a digit, a glyph past the drum's end, a scale label standing
 * apart and a window edge read as a leading 1 go, a digit only the first pass saw is put back,
 * and the first pass settles the digits it was clearly surer of.
 */
export function rowReading(first: DigitRead, boxed: DigitRead, widened: DigitRead, firstEnd = Infinity): RowReading | undefined {
  const firstClean = cleanRowDigits(first.text);
  if (firstClean && firstClean !== first.text && boxed.text.startsWith(firstClean)) return { value: firstClean };
  const close = (r: DigitRead) => withoutWindowEdge(withoutScaleNeighbours(withoutGlyphPastDrum(first, withoutForcedLast(r), firstEnd)));
  const wide = close(widened);
  const tenths = (r: DigitRead) => {
    const value = withTenths(cleanRowDigits(r.text), cleanRowDigits(wide.text));
    if (!value) return undefined;
    return value.length > r.text.length ? { value, read: wide, other: r, widened: true } : { value, read: r, other: wide };
  };
  // A tenths wheel read digits only in the widened crop beats the first pass's glyph there.
  const box = surerDigits(first, close(boxed));
  const plain = tenths(box);
  if (plain?.widened) return plain;
  const merged = surerDigits(first, withFirstPassDigit(first, boxed, close));
  // The first pass's last digit is the tenths wheel the box cut off: the widened crop adds no other.
  if (merged.text.length > box.text.length && merged.text.startsWith(box.text)) {
    const value = cleanRowDigits(merged.text);
    return value ? { value, read: merged, other: wide } : undefined;
  }
  const row = tenths(merged);
  const passedOver = row?.read && row.value === row.read.text ? passedOverWheel(first, row.read) : undefined;
  return passedOver ? { ...row!, passedOver } : row;
}
