/**
 * Search keys for plate history: a read is found by its plate, by a look-alike of it, or by a
 * plate one character off (a character misread, dropped or added, two neighbours swapped).
 *
 * Look-alikes fold to one character (O, Q and D to 0; I and L to 1; Z to 2; S to 5; B to 8; G to
 * 6), as the reader confuses them. "One character off" is the symmetric-delete scheme (SymSpell):
 * a folded plate's keys are itself and every plate made by deleting one of its characters; two
 * plates within one edit of each other share a key. Keys are plain strings, so the search is an
 * index lookup of a handful of keys, however many reads there are.
 */

const LOOK_ALIKES: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', B: '8', G: '6' };

/** A plate as Vigil answers and stores it: lower case, letters and digits only. */
export const normalizePlate = (plate: string): string => plate.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The plate in upper case, letters and digits only, each look-alike folded. */
export function foldPlate(plate: string): string {
  return [...plate.toUpperCase().replace(/[^A-Z0-9]/g, '')].map((c) => LOOK_ALIKES[c] ?? c).join('');
}

/** Plates with notes as people write them: one per line, a note after a comma. */
export function parsePlateLines(text: string): Array<{ plate: string; note: string }> {
  return text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).map((l) => {
    const [plate, ...note] = l.split(',');
    return { plate: plate!.trim(), note: note.join(',').trim() };
  });
}

/** The keys of a plate for the search within one edit (see above), its folded self first. */
export function plateKeys(plate: string): string[] {
  const folded = foldPlate(plate);
  const keys = new Set([folded]);
  // A one-character plate would share the empty key with every other.
  if (folded.length > 1) for (let i = 0; i < folded.length; i++) keys.add(folded.slice(0, i) + folded.slice(i + 1));
  return [...keys];
}
