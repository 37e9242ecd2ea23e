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
