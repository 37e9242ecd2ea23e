/** Grammars of the simpler identifiers the OCR reader extracts. */

/** A recogniser's other choices below this probability are noise, not doubt: the floor under
 * which a reader takes no trace of a character it might have misread. */
export const OTHER_CHOICE_FLOOR = 0.05;

/** Trailer and fleet identifiers: 3 to 12 letters and digits with at least one digit. Fleet
 * numbers are a letter prefix and a run of digits, so in the run that starts at the first digit
 * an O or an I is the 0 or 1 it looks like (TN2OO is TN200), and so are an O or I written
 * against the run's start after a prefix of other letters (KXO108 is KX0108, NIO0 is N100). */
export function trailerId(text: string): string | undefined {
  let t = digitsBeforeRun(text.toUpperCase()).replace(/[^A-Z0-9]/g, '');
  const first = t.search(/\d/);
  if (first >= 0) {
    const run = /^[0-9OI]+/.exec(t.slice(first))![0];
    t = t.slice(0, first) + run.replace(/O/g, '0').replace(/I/g, '1') + t.slice(first + run.length);
  }
  return t.length >= 3 && t.length <= 12 && /\d/.test(t) ? t : undefined;
}

/** O and I just before the first digit, written against it, as the digits they look like,
 * while a letter other than O and I stays in front of them (IO5 keeps its letters: no prefix
 * would be left). */
function digitsBeforeRun(text: string): string {
  const first = text.search(/\d/);
  let start = first;
  while (start > 0 && (text[start - 1] === 'O' || text[start - 1] === 'I') && /[A-HJ-NP-Z]/.test(text.slice(0, start - 1))) start--;
  if (start <= 0 || start === first) return text;
  return text.slice(0, start) + text.slice(start, first).replace(/O/g, '0').replace(/I/g, '1') + text.slice(first);
}

/** A fleet number's shape: a short letter prefix, a run of digits and at most a letter or two
 * after it (53012, TN200, R1453B). A line of words that happens to hold a digit (CARRIER 53,
 * 53 FT REEFER) passes trailerId but is not shaped like one. */
export function isFleetNumber(id: string): boolean {
  return /^[A-Z]{0,4}\d{2,}[A-Z]{0,2}$/.test(id);
}

/** Who numbers boats in the US (33 CFR 174): the states by their postal codes, California as CF,
 * and the District of Columbia, Puerto Rico, the Virgin Islands, Guam, American Samoa and the
 * Northern Mariana Islands (CM). */
const BOAT_AUTHORITIES = new Set(('AL AK AZ AR CF CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ '
  + 'NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU AS CM').split(' '));

/** Digits a recogniser reads for letters of a state code. */
const DIGIT_AS_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B' };

/** A US state's hull number read without the letters that end every one (OR937 for OR 937 U):
 * an issuing authority's code and 1 to 4 digits, and nothing after them; its code and digits. */
export function stateNumberWithoutLetters(value: string): { state: string; digits: string } | undefined {
  const m = /^([A-Z]{2}) ?(\d{1,4})$/.exec(value);
  return m && BOAT_AUTHORITIES.has(m[1]!) ? { state: m[1]!, digits: m[2]! } : undefined;
}

/** Hull registration numbers. US state numbering (33 CFR 174): two-letter state code, 1 to 4
 * digits, 1 or 2 letters, written with spaces or hyphens (CF 1234 AB). Other countries' small
 * craft use short letter+digit marks, accepted as 4 to 10 alphanumerics with both kinds. */
export function boatRegistration(text: string): string | undefined {
  const t = text.toUpperCase().replace(/[^A-Z0-9 -]/g, ' ').replace(/\s+/g, ' ').trim();
  const us = /\b([A-Z]{2})[ -]?(\d{1,4})[ -]?([A-Z]{1,2})\b/.exec(t);
  if (us) return `${us[1]} ${us[2]} ${us[3]}`;
  // A state code's letter read as the digit it looks like (WI 6 V as W16V): the two characters
  // must make an issuing authority's code once read as letters.
  for (const m of t.matchAll(/\b([A-Z0-9]{2})[ -]?(\d{1,4})[ -]?([A-Z]{1,2})\b/g)) {
    const state = [...m[1]!].map((c) => DIGIT_AS_LETTER[c] ?? c).join('');
    if (/[A-Z]/.test(m[1]!) && BOAT_AUTHORITIES.has(state)) return `${state} ${m[2]} ${m[3]}`;
  }
  const compact = t.replace(/[ -]/g, '');
  return compact.length >= 4 && compact.length <= 10 && /\d/.test(compact) && /[A-Z]/.test(compact) ? compact : undefined;
}
