import type { DecodedText } from './ctc-decode.js';

const isAlphanumeric = (c: string) => /[A-Za-z0-9]/.test(c);

/** PP-OCR's dictionary holds full-width letters and digits (９ for 9): the same characters,
 * one code unit each either way, so positions stay. */
const foldWidths = (text: string) => [...text].map((c) => {
  const folded = c.normalize('NFKC');
  return folded.length === 1 ? folded : c;
}).join('');

/** Where `second` read the same number of letters and digits as `first`, each of them is the
 * surer reader's (by more than `margin`); elsewhere `first` stands. Two readers misread
 * different characters: PP-OCR takes an unusual font's 0 for G at 0.5 where a reader trained on
 * such fonts reads it surely, and the other way round. Spaces and punctuation are `first`'s,
 * as are the characters' spans. */
export function fuseReadings(first: DecodedText, secondAsRead: DecodedText, margin = 0): DecodedText {
  const second = { ...secondAsRead, text: foldWidths(secondAsRead.text) };
  const ours = [...first.text].flatMap((c, i) => (isAlphanumeric(c) ? [i] : []));
  const theirs = [...second.text].flatMap((c, i) => (isAlphanumeric(c) ? [i] : []));
  if (ours.length === 0 || ours.length !== theirs.length) return first;
  const text = [...first.text];
  const charConfidences = [...first.charConfidences];
  const alternatives = [...first.alternatives];
  let changed = false;
  ours.forEach((i, k) => {
    const j = theirs[k]!;
    const theirChar = second.text[j]!;
    if (theirChar.toUpperCase() === text[i]!.toUpperCase()) return;
    if ((second.charConfidences[j] ?? 0) <= (first.charConfidences[i] ?? 0) + margin) return;
    text[i] = theirChar;
    charConfidences[i] = second.charConfidences[j] ?? 0;
    alternatives[i] = second.alternatives[j] ?? [];
    changed = true;
  });
  if (!changed) return first;
  const confidence = charConfidences.reduce((s, p) => s + p, 0) / Math.max(1, charConfidences.length);
  return { ...first, text: text.join(''), confidence, charConfidences, alternatives };
}
