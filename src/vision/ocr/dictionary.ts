import { OCR_MODEL_FILES, readModelText } from '../runtime/onnx-session.js';

/** Class table of the recogniser: index 0 is the CTC blank, then the dictionary lines, then a
 * space (PP-OCR's use_space_char). PP-OCRv4 has 6625 classes = 1 + 6623 + 1. */
export interface CharTable {
  chars: readonly string[];
  indexOf: ReadonlyMap<string, number>;
}

export function buildCharTable(dictionaryText: string): CharTable {
  const lines = dictionaryText.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const chars = ['', ...lines, ' '];
  const indexOf = new Map<string, number>();
  chars.forEach((c, i) => {
    if (i > 0 && !indexOf.has(c)) indexOf.set(c, i);
  });
  return { chars, indexOf };
}

let cached: CharTable | undefined;
export function loadPpOcrCharTable(): CharTable {
  cached ??= buildCharTable(readModelText(OCR_MODEL_FILES.dictionary));
  return cached;
}

/** Class mask for decoding restricted to `charset` (blank always allowed). */
export function charsetMask(table: CharTable, charset: string): Uint8Array {
  const mask = new Uint8Array(table.chars.length);
  mask[0] = 1;
  for (const c of charset) {
    const i = table.indexOf.get(c);
    if (i !== undefined) mask[i] = 1;
  }
  return mask;
}

export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
