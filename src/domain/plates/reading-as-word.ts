/** A plate reading as the word it may spell (a make's badge, a state's name): upper case, with
 * the digits the plate reader folds O and I into (0, 1) turned back into letters; undefined where
 * anything but letters is left. */
export function readingAsWord(reading: string): string | undefined {
  const text = reading.toUpperCase().replace(/0/g, 'O').replace(/1/g, 'I');
  return /^[A-Z]+$/.test(text) ? text : undefined;
}
