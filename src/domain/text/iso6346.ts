/** ISO 6346 freight container codes: owner code (3 letters), category (U, J or Z), a 6-digit
 * serial and a check digit, e.g. CSQU 305438 3. The check digit corrects or rejects readings. */

/** Letter values skip multiples of 11. */
const LETTER_VALUES: Record<string, number> = (() => {
  const out: Record<string, number> = {};
  let v = 10;
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    if (v % 11 === 0) v++;
    out[c] = v++;
  }
  return out;
})();

const SHAPE = /^[A-Z]{3}[UJZ]\d{7}$/;
const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G', '4': 'A', '7': 'T' };
const TO_DIGIT: Record<string, string> = { O: '0', D: '0', Q: '0', I: '1', L: '1', T: '7', Z: '2', S: '5', B: '8', G: '6', A: '4' };

/** Check digit of the first ten characters. */
export function containerCheckDigit(code10: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const c = code10[i]!;
    sum += (/\d/.test(c) ? Number(c) : LETTER_VALUES[c]!) * 2 ** i;
  }
  return (sum % 11) % 10;
}

export function isValidContainerCode(code: string): boolean {
  return SHAPE.test(code) && containerCheckDigit(code) === Number(code[10]);
}

/** Puts letters where the format wants letters and digits where it wants digits. */
export function coerceContainerCode(text: string): string | undefined {
  const raw = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (raw.length === 10) {
    // The check digit is usually painted in its own box and is the part readers miss most.
    const ten = coerceContainerCode(`${raw}0`)?.slice(0, 10);
    return ten && `${ten}${containerCheckDigit(ten)}`;
  }
  if (raw.length !== 11) return undefined;
  const chars = raw.split('').map((c, i) => (i < 4 ? (TO_LETTER[c] ?? c) : (TO_DIGIT[c] ?? c)));
  if (chars[3] === 'V') chars[3] = 'U'; // the category is U, J or Z
  const code = chars.join('');
  return SHAPE.test(code) ? code : undefined;
}

/** A valid code from a reading: coerced by position; a wrong check digit is trusted only when
 * the reader was unsure of that digit (then it is recomputed), otherwise the reading is refused. */
export function resolveContainerCode(text: string, checkDigitConfidence = 1): { code: string; corrected: boolean } | undefined {
  const code = coerceContainerCode(text);
  if (!code) return undefined;
  if (text.replace(/[^A-Za-z0-9]/g, '').length === 10) return { code, corrected: true };
  if (isValidContainerCode(code)) return { code, corrected: false };
  if (checkDigitConfidence < 0.7) return { code: code.slice(0, 10) + containerCheckDigit(code), corrected: true };
  return undefined;
}

/** Size and type codes such as 22G1, 45G1, L5G1 (ISO 6346 size/type). */
export const SIZE_TYPE = /^[0-9L][0-9][A-Z][0-9]$/;

/**
 * The size and type code in a reading, or undefined. Only its letters and digits count: a
 * column read down a container's side takes in the stickers under the code (a height sticker,
 * a CSC mark), which the recogniser reads as CJK glyphs. Where the code wants a digit (second
 * and fourth place, and the first unless it is an L) a look-alike letter becomes the digit, at
 * most once: 22Gi is 22G1, but LOGO or a word is no code. The type letter is left as read: a
 * digit there is more often a weight (2180) than a misread letter.
 */
export function readSizeType(text: string): string | undefined {
  const raw = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (raw.length !== 4) return undefined;
  let changes = 0;
  const digit = (c: string) => {
    const d = /[0-9]/.test(c) ? c : TO_DIGIT[c];
    if (d !== c) changes++;
    return d ?? c;
  };
  const code = `${raw[0] === 'L' ? 'L' : digit(raw[0]!)}${digit(raw[1]!)}${raw[2]}${digit(raw[3]!)}`;
  return changes <= 1 && SIZE_TYPE.test(code) ? code : undefined;
}

/** One character as the recogniser read it: the class it chose first, then its runners-up. */
export type CharOptions = ReadonlyArray<{ char: string; prob: number }>;

export interface ContainerCandidate {
  code: string;
  /** Characters that differ from the recogniser's first choice (after coercion by position). */
  changes: number;
  /** Product of the probabilities of the chosen characters. */
  score: number;
}

/** Same-class look-alikes the recogniser confuses in stencilled paint, tried at an unsure position
 * when its runners-up do not give a valid code. */
const CONFUSED: Record<string, string> = {
  C: 'GLO', L: 'CI', G: 'CO', O: 'DQC', D: 'O', Q: 'O', U: 'VJ', V: 'U', J: 'U', I: 'LT', T: 'I', M: 'N', N: 'M', H: 'N', E: 'F', F: 'E', K: 'X', X: 'K',
  '0': '86', '1': '7', '7': '1', '3': '8', '8': '360', '6': '850', '5': '6', '9': '0', '2': '7',
};
/** A runner-up must carry this much probability to be considered; a look-alike with no evidence
 * is considered only where the first choice is below SURE. */
const MIN_EVIDENCE = 0.02;
const SURE = 0.9;
/** A corrected code must keep at least this share of the reading's own probability: with enough
 * freedom any junk has a combination whose check digit holds (one in eleven does). */
const MIN_LIKELIHOOD_RATIO = 1e-3;

/** The valid code closest to a reading of 11 characters, using the check digit as the arbiter:
 * each position's first choice (coerced to a letter or a digit by position, which counts as a
 * change), then runners-up or look-alikes at unsure positions, at most `maxChanges` changes in
 * all, keeping the most probable combination whose check digit holds. Undefined when none does. */
export function resolveContainerOptions(chars: readonly CharOptions[], maxChanges = 2): ContainerCandidate | undefined {
  if (chars.length !== 11) return undefined;
  const wants = (i: number) => (i < 3 ? /^[A-Z]$/ : i === 3 ? /^[UJZ]$/ : /^\d$/);
  const coerce = (c: string, i: number) => {
    const u = c.toUpperCase();
    const x = i < 4 ? (TO_LETTER[u] ?? u) : (TO_DIGIT[u] ?? u);
    return i === 3 && x === 'V' ? 'U' : x;
  };
  // Per position: the first choice, then alternatives, each with the probability it carries.
  const options = chars.map((opts, i) => {
    const first = opts[0];
    const top = first ? coerce(first.char, i) : '';
    // A letter read where a digit belongs (or the reverse) is a change too, at half the odds.
    const coerced = first !== undefined && top !== first.char.toUpperCase();
    const list: Array<{ char: string; prob: number; change?: boolean }> = [{ char: top, prob: Math.max(1e-3, first?.prob ?? 0) * (coerced ? 0.5 : 1), change: coerced }];
    const add = (char: string, prob: number) => {
      if (!wants(i).test(char) || list.some((o) => o.char === char)) return;
      list.push({ char, prob });
    };
    for (const o of opts.slice(1)) if (o.prob >= MIN_EVIDENCE) add(coerce(o.char, i), o.prob);
    if ((first?.prob ?? 0) < SURE) for (const c of CONFUSED[top] ?? '') add(c, Math.max(MIN_EVIDENCE, (1 - (first?.prob ?? 0)) / 4));
    // The category is one of three letters: when the reading is none of them, the check digit
    // chooses (a U with a faint bottom reads as O, 0 or V).
    if (i === 3 && !/^[UJZ]$/.test(top)) for (const c of 'UJZ') add(c, MIN_EVIDENCE);
    // The check digit is painted in a box whose edges the recogniser mixes into it: when it read
    // a letter there, or was unsure, any digit may be the one; the other ten characters decide.
    if (i === 10 && (coerced || (first?.prob ?? 0) < 0.7)) for (const c of '0123456789') add(c, MIN_EVIDENCE);
    return list;
  });
  let best: ContainerCandidate | undefined;
  const consider = (picks: number[]) => {
    const code = picks.map((k, i) => options[i]![k]!.char).join('');
    if (!isValidContainerCode(code)) return;
    const score = picks.reduce((s, k, i) => s * options[i]![k]!.prob, 1);
    if (score < readingScore * MIN_LIKELIHOOD_RATIO) return;
    const changes = picks.filter((k, i) => k > 0 || options[i]![0]!.change).length;
    if (changes > maxChanges) return;
    if (!best || score > best.score) best = { code, changes, score };
  };
  const picks = Array(11).fill(0) as number[];
  const readingScore = chars.reduce((s, o) => s * Math.max(1e-3, o[0]?.prob ?? 0), 1);
  consider(picks);
  if ((best && best.changes === 0) || maxChanges < 1) return best;
  for (let i = 0; i < 11; i++) {
    for (let a = 1; a < options[i]!.length; a++) {
      picks[i] = a;
      consider(picks);
      if (maxChanges >= 2) {
        for (let j = i + 1; j < 11; j++) {
          for (let b = 1; b < options[j]!.length; b++) {
            picks[j] = b;
            consider(picks);
          }
          picks[j] = 0;
        }
      }
    }
    picks[i] = 0;
  }
  return best;
}
