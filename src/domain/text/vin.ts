/** Vehicle identification numbers (ISO 3779): 17 characters, never I, O or Q. North American
 * VINs carry a check digit in position 9, which lets a reader choose among look-alikes. */

import { OTHER_CHOICE_FLOOR } from './text-types.js';
import { isKnownWmi } from './vin-wmi.js';

const TRANSLITERATION: Record<string, number> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8, J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9, S: 2,
  T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const VIN_CHARS = /^[A-HJ-NPR-Z0-9]{17}$/;

/** Letters never used in a VIN are the digits they look like. */
const FORBIDDEN_TO_DIGIT: Record<string, string> = { I: '1', O: '0', Q: '0' };
/** Characters OCR confuses, both ways. */
const LOOK_ALIKES: Record<string, string[]> = {
  '0': ['D'], D: ['0'], '1': ['L', 'T'], L: ['1'], T: ['1', '7'], '7': ['T'], '8': ['B'], B: ['8'], '5': ['S'], S: ['5'],
  '2': ['Z'], Z: ['2'], '6': ['G'], G: ['6'], '4': ['A'], A: ['4'], U: ['V'], V: ['U'],
};

function value(c: string): number {
  return /\d/.test(c) ? Number(c) : (TRANSLITERATION[c] ?? -1);
}

/** The check digit position 9 should hold ('0'-'9' or 'X'). */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += value(vin[i]!) * WEIGHTS[i]!;
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

export function isVinShape(vin: string): boolean {
  return VIN_CHARS.test(vin);
}

/** ISO 3779 structure: the vehicle indicator section ends in digits (the standard wants the last
 * four numeric; small manufacturers' serials keep at least the last three), and in North America
 * (49 CFR 565) position 10, the model year, is never U, Z or 0. */
export function hasVinStructure(vin: string): boolean {
  if (!isVinShape(vin) || !/\d{3}$/.test(vin)) return false;
  return !isNorthAmerican(vin) || !/[UZ0]/.test(vin[9]!);
}

const isNorthAmerican = (vin: string) => /^[1-5]/.test(vin);

/** North American VINs (first character 1-5) must pass the check digit; all must have the
 * ISO 3779 structure. */
export function isValidVin(vin: string): boolean {
  if (!hasVinStructure(vin)) return false;
  return !isNorthAmerican(vin) || vinCheckDigit(vin) === vin[8];
}

/** Upper case, no separators, I/O/Q as the digits they must be. */
export function normaliseVin(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/[IOQ]/g, (c) => FORBIDDEN_TO_DIGIT[c]!);
}

/** Letters read where the structure wants digits (the serial's last characters). */
const TO_DIGIT: Record<string, string> = { S: '5', B: '8', G: '6', Z: '2', D: '0', T: '7', A: '4', L: '1', J: '1' };

export interface VinReading {
  vin: string;
  /** Whether the check digit (or, outside North America, the structure) holds. */
  valid: boolean;
  /** Characters changed from what was read (I, O and Q as digits included). */
  corrections: number;
  /** Whether a check digit confirmed it (North American VINs), not only its shape. */
  checked: boolean;
}

/** Per position of a reading, the recogniser's choices, best first (its own reading among them). */
export type ReadChoices = ReadonlyArray<ReadonlyArray<{ char: string; prob: number }>>;

/** Best VIN from an OCR reading: normalised (I, O, Q and letters in the final serial digits as the
 * digits they look like), then, if the check digit fails, one swap (least confident characters
 * first) that makes it pass: at each position to the recogniser's own other choices (`choices`),
 * or for a bare reading without them, to the usual look-alikes. A 1 read where the recogniser
 * also saw a T becomes T, not L, though both pass the same check digit (T and L both count 3).
 * A look-alike the recogniser did not see is no evidence: among a misread's unsure characters
 * one such swap passes the check digit by chance often (one in eleven each), and on the second
 * generator's draws 40-49 and 84-107 those swaps gave wrong VINs and no right one (2026-12-06).
 * Never two swaps: of the
 * sixty or so pairs among the least sure characters, one makes a misread's check digit pass by
 * chance more often than not (one in eleven each), and on the second generator's tuning draws
 * every VIN found that way was wrong (2026-12-06). */
export function resolveVin(text: string, charConfidences: number[] = [], choices: ReadChoices = []): VinReading | undefined {
  const raw = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (raw.length !== 17) return undefined;
  let vin = normaliseVin(raw);
  vin = vin.slice(0, 14) + [...vin.slice(14)].map((c) => TO_DIGIT[c] ?? c).join('');
  vin = withKnownMaker(vin, choices);
  const fixed = [...vin].filter((c, i) => c !== raw[i]).length;
  const checked = (v: string) => isNorthAmerican(v);
  if (isValidVin(vin)) return { vin, valid: true, corrections: fixed, checked: checked(vin) };
  // Try single swaps, least confident positions first. With confidences, only characters the
  // reader was unsure of may change; the first character (the region, which decides whether a
  // check digit applies) never does.
  const sure = (i: number) => charConfidences.length === 17 && (charConfidences[i] ?? 1) >= 0.85;
  const order = [...Array(17).keys()].filter((i) => i > 0 && !sure(i)).sort((a, b) => (charConfidences[a] ?? 1) - (charConfidences[b] ?? 1));
  const seenAs = (i: number) => choices[i]!
    .filter((o) => o.prob >= OTHER_CHOICE_FLOOR).map((o) => normaliseVin(o.char)).filter((c) => c.length === 1);
  // Without the recogniser's choices (a bare reading) the usual look-alikes stand in for them.
  const swaps = (s: string, i: number) => [...new Set(choices.length === 17 ? seenAs(i) : LOOK_ALIKES[s[i]!] ?? [])]
    .filter((c) => c !== s[i]).map((c) => s.slice(0, i) + c + s.slice(i + 1));
  for (const i of order) for (const v of swaps(vin, i)) if (isValidVin(v)) return { vin: v, valid: true, corrections: fixed + 1, checked: checked(v) };
  const surest = likeliestSureSwap(vin, choices);
  if (surest) return { vin: surest, valid: true, corrections: fixed + 1, checked: checked(surest) };
  return isVinShape(vin) ? { vin, valid: false, corrections: fixed, checked: false } : undefined;
}

/** A maker code nobody registered, where the recogniser also saw what makes it a known one, is
 * that one (ZEA with an F beside the E is Fiat's ZFA; THG with a 1 beside the T, Honda's 1HG),
 * provided the VIN then holds: its check digit where the first character makes it North
 * American, its structure elsewhere. Of several, the one the recogniser saw likeliest. */
function withKnownMaker(vin: string, choices: ReadChoices): string {
  if (isKnownWmi(vin)) return vin;
  const holds = (v: string) => isKnownWmi(v) && (isNorthAmerican(v) ? isValidVin(v) : hasVinStructure(v));
  return likeliestSwap(vin, choices, [0, 1, 2], OTHER_CHOICE_FLOOR, holds) ?? checkedLookAlikeMaker(vin) ?? vin;
}

/** Letters a North American region digit is misread as (a stencilled 3 as B, a 1 as T or L). */
const REGION_LOOK_ALIKES: Record<string, string[]> = { B: ['3'], E: ['3'], L: ['1'], T: ['1'], J: ['1'], Z: ['2'], A: ['4'], S: ['5'] };

/** An unknown maker code one look-alike away from a known North American one (BVW for
 * Volkswagen de Mexico's 3VW) is that one where the check digit then holds, even where the
 * recogniser saw no trace of it: the check digit is the evidence (one chance in eleven of
 * holding by accident). Outside North America nothing checks a swap, so none is made; nor
 * where two makers fit. */
function checkedLookAlikeMaker(vin: string): string | undefined {
  const fits = [0, 1, 2].flatMap((i) => ((i === 0 ? REGION_LOOK_ALIKES : LOOK_ALIKES)[vin[i]!] ?? [])
    .map((c) => vin.slice(0, i) + c + vin.slice(i + 1)))
    .filter((v) => isKnownWmi(v) && isNorthAmerican(v) && isValidVin(v));
  return fits.length === 1 ? fits[0] : undefined;
}

/** A sure character's other choices at or above this probability are a misread's trace: a
 * stamped M read as W at 0.94 keeps the M at 0.05. */
const SURE_SWAP_FLOOR = 0.02;

/** Last resort where no swap of an unsure character passes: one swap anywhere but the first
 * character, to what the recogniser also saw there, however sure it was; of those that pass,
 * the one it saw likeliest. */
function likeliestSureSwap(vin: string, choices: ReadChoices): string | undefined {
  return likeliestSwap(vin, choices, [...Array(17).keys()].slice(1), SURE_SWAP_FLOOR, isValidVin);
}

/** Of the VINs one swap away at `positions`, to another choice the recogniser saw there at
 * `floor` or more, those that `hold`; the one whose swapped-in character it saw likeliest. */
function likeliestSwap(vin: string, choices: ReadChoices, positions: readonly number[], floor: number, holds: (v: string) => boolean): string | undefined {
  if (choices.length !== 17) return undefined;
  const swapped = positions.flatMap((i) => choices[i]!
    .filter((o) => o.prob >= floor)
    .map((o) => ({ vin: vin.slice(0, i) + normaliseVin(o.char) + vin.slice(i + 1), prob: o.prob }))
    .filter((s) => s.vin.length === 17 && s.vin !== vin && holds(s.vin)));
  return swapped.sort((a, b) => b.prob - a.prob)[0]?.vin;
}
