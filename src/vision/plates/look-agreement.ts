import { type CharOption, scaledOptions, topProb } from './plate-scoring.js';

/** The less sure look saw the character at most this part as surely as the other: it barely saw
 * one there (two looks that merely weigh two plausible characters differently, O 0.5 against
 * D 0.7, are left alone). */
const BARELY_SEEN = 0.5;

/** Two looks at the same line (as photographed, brightest channel) that read a character
 * differently, one of them barely seeing it, are each only as sure of it as the less sure
 * look: a mark beside the number (an emblem, a bolt, a frame edge) that one look reads as a
 * fair letter is then doubtful in both, and the reading without it stays in the running (see
 * expandReading). Looks of different lengths are not compared position by position and are
 * returned unchanged, as are further looks. */
export function doubtDisagreements(looks: readonly CharOption[][][]): CharOption[][][] {
  const [a, b] = looks;
  if (!a || !b || a.length !== b.length) return [...looks];
  const doubtful = a.map((c, i) => {
    const d = b[i]!;
    if (c[0] === undefined || d[0] === undefined || c[0].char === d[0].char) return false;
    return Math.min(topProb(c), topProb(d)) < BARELY_SEEN * Math.max(topProb(c), topProb(d));
  });
  if (!doubtful.some(Boolean)) return [...looks];
  const lower = (look: CharOption[][], other: CharOption[][]) => look.map((c, i) => {
    const scale = doubtful[i] ? topProb(other[i]!) / Math.max(1e-6, topProb(c)) : 1;
    return scale < 1 ? scaledOptions(c, scale) : c;
  });
  return [lower(a, b), lower(b, a), ...looks.slice(2)];
}
