import type { CharCandidate, DecodedText, OtherReading } from './ctc-decode.js';

const isAlphanumeric = (c: string) => /[A-Za-z0-9]/.test(c);
/** Where a text has a character other than a space. */
const printedAt = (text: string) => [...text].flatMap((c, i) => (c !== ' ' ? [i] : []));

/** PP-OCR's dictionary holds full-width letters and digits (９ for 9): the same characters,
 * one code unit each either way, so positions stay. */
const foldWidths = (text: string) => [...text].map((c) => {
  const folded = c.normalize('NFKC');
  return folded.length === 1 ? folded : c;
}).join('');

/** Where `second` read the same number of letters and digits as `first`, each of them is the
 * one both readers together find likelier (`jointChance`); elsewhere `first` stands. Two readers
 * misread different characters: PP-OCR takes an unusual font's 0 for G at 0.5 where a reader
 * trained on such fonts reads it surely, and the other way round. Each reader's other choices
 * count too: a VIN's last 0 that PP-OCR read as 9 at 0.89 with 0 its next choice (0.08), beside
 * the identifier reader's 0 at 0.87 with no 9 among its choices, is a 0. Where they disagree,
 * the character not taken stays among that position's choices at its reader's confidence: a
 * grammar that rejects the reading (a VIN's check digit, a fleet number's digits) finds it
 * there. Where one read a mark where the other read a letter or digit, on lines as long apart
 * from spaces, the letter or digit is taken where likelier; where they read different numbers of
 * characters, `first` stands with `second` beside it (otherReading). Spaces and other marks are
 * `first`'s, as are the characters' spans. Where `first` read no letter or digit at all and
 * `second` did, `second`'s reading stands whole: PP-OCR reads some faint or outlined numbers as
 * nothing that the other reader reads. */
export function fuseReadings(first: DecodedText, secondAsRead: DecodedText): DecodedText {
  const second = { ...secondAsRead, text: foldWidths(secondAsRead.text) };
  let ours = [...first.text].flatMap((c, i) => (isAlphanumeric(c) ? [i] : []));
  let theirs = [...second.text].flatMap((c, i) => (isAlphanumeric(c) ? [i] : []));
  if (theirs.length === 0) return first;
  if (ours.length === 0) return second;
  if (ours.length !== theirs.length) {
    // One read a mark where the other read a character (a faint 4 as "!"): on lines as long,
    // apart from spaces, the characters still stand in step.
    [ours, theirs] = [printedAt(first.text), printedAt(second.text)];
    if (ours.length !== theirs.length) return { ...first, otherReading: otherReadingOf(second) };
  }
  const text = [...first.text];
  const charConfidences = [...first.charConfidences];
  const alternatives = [...first.alternatives];
  let changed = false;
  ours.forEach((i, k) => {
    const j = theirs[k]!;
    const theirChar = second.text[j]!;
    if (theirChar.toUpperCase() === text[i]!.toUpperCase() || !isAlphanumeric(theirChar)) return;
    const firstRead = { char: text[i]!, prob: first.charConfidences[i] ?? 0 };
    const secondRead = { char: theirChar, prob: second.charConfidences[j] ?? 0 };
    changed = true;
    const joint = (char: string) => jointChance(char, [first.alternatives[i], firstRead], [second.alternatives[j], secondRead]);
    if (joint(secondRead.char) <= joint(firstRead.char)) {
      alternatives[i] = withChoice(first.alternatives[i] ?? [], secondRead);
      return;
    }
    text[i] = theirChar;
    charConfidences[i] = secondRead.prob;
    alternatives[i] = withChoice(second.alternatives[j] ?? [], firstRead);
  });
  if (!changed) return first;
  const confidence = charConfidences.reduce((s, p) => s + p, 0) / Math.max(1, charConfidences.length);
  return { ...first, text: text.join(''), confidence, charConfidences, alternatives };
}

/** How likely both readers find `char` at one position: the product of what each gave it
 * (`chanceOf`), as two independent opinions combine. With no other choices known it orders two
 * readings as their confidences do. */
function jointChance(char: string, ...readers: Array<[readonly CharCandidate[] | undefined, CharCandidate]>): number {
  return readers.reduce((p, [choices, read]) => p * chanceOf(choices, read, char), 1);
}

/** What a reader gave `char` at one position: its reading's confidence, or the character's
 * among its likeliest few choices there; for one it did not list, no more than the least it
 * listed, and no more than UNSEEN_CHANCE. A reader sure of nothing (every choice at 0) gives
 * every character 0 and so changes nothing. */
function chanceOf(choices: readonly CharCandidate[] | undefined, read: CharCandidate, char: string): number {
  const listed = [read, ...(choices ?? [])];
  const unseen = Math.min(UNSEEN_CHANCE, ...listed.map((c) => c.prob));
  const upper = char.toUpperCase();
  return listed.reduce((p, c) => (c.char.toUpperCase() === upper ? Math.max(p, c.prob) : p), unseen);
}

/** The chance given a character a reader did not list among its likeliest three: chosen on the
 * second generator's tuning draws 108-119 among 0.001 to 0.1, which all read 2-3 more VINs
 * (docs/benchmarks.md). */
const UNSEEN_CHANCE = 0.003;

/** A character's choices with the other reader's reading of it among them, at that reader's
 * confidence or at what this reader gave it, whichever is more; best first. */
function withChoice(choices: readonly CharCandidate[], other: CharCandidate): CharCandidate[] {
  const rest = choices.filter((c) => c.char.toUpperCase() !== other.char.toUpperCase());
  const own = choices.find((c) => c.char.toUpperCase() === other.char.toUpperCase());
  return [...rest, own && own.prob > other.prob ? own : other].sort((a, b) => b.prob - a.prob);
}

const otherReadingOf = ({ text, confidence, charConfidences, alternatives }: DecodedText): OtherReading => ({ text, confidence, charConfidences, alternatives });

/** Characters two readers take for one another: where `withDroppedCharacter` lines two
 * readings up, a pair of them still counts as the same character. */
const LOOK_ALIKES: Record<string, string> = { O: '0', D: '0', Q: '0', I: '1', Z: '2', S: '5', B: '8', G: '6' };
const folded = (c: string) => LOOK_ALIKES[c.toUpperCase()] ?? c.toUpperCase();

/** `first` with the one character it dropped that `second` read, where `second`'s letters and
 * digits are `first`'s (look-alikes counting as one: a stack's Z laid out reads 2) with one more
 * inside the line, read at `minProb` or more, beside no character like it; else `first`. A
 * column reader's CTC drops a thin character between two wide ones (Z9199 read Z999, YBD2070
 * YBD270) that a line reader reading the column laid out sees. Not at either end, where a line
 * reader adds the edge of a panel or a rivet, nor beside its own kind, where it reads one thin
 * character twice (97711 laid out as 977111). */
export function withDroppedCharacter(first: DecodedText, second: DecodedText, minProb = 0.5): DecodedText {
  if (!/^[A-Za-z0-9]+$/.test(first.text)) return first;
  const kept = [...second.text].flatMap((c, j) => (isAlphanumeric(c) ? [j] : []));
  if (kept.length !== first.text.length + 1) return first;
  const theirs = kept.map((j) => folded(second.text[j]!)).join('');
  const ours = [...first.text].map(folded).join('');
  for (let k = 1; k < kept.length - 1; k++) {
    if (theirs.slice(0, k) + theirs.slice(k + 1) !== ours) continue;
    const j = kept[k]!;
    const char = second.text[j]!.toUpperCase();
    const prob = second.charConfidences[j] ?? 0;
    if (prob < minProb || folded(char) === theirs[k - 1] || folded(char) === theirs[k + 1]) return first;
    const charConfidences = [...first.charConfidences.slice(0, k), prob, ...first.charConfidences.slice(k)];
    return {
      ...first,
      text: first.text.slice(0, k) + char + first.text.slice(k),
      confidence: charConfidences.reduce((s, p) => s + p, 0) / charConfidences.length,
      charConfidences,
      alternatives: [...first.alternatives.slice(0, k), second.alternatives[j] ?? [{ char, prob }], ...first.alternatives.slice(k)],
      charSpans: undefined,
    };
  }
  return first;
}
