import { isOneOf } from './choice.js';

/** Product families an account can be allowed to use. */
export const FEATURES = ['camera-monitoring', 'ocr', 'plate-reader'] as const;
export type Feature = (typeof FEATURES)[number];

export function parseFeatures(list: string): Feature[] {
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  const known = names.filter((n): n is Feature => isOneOf(FEATURES, n));
  const unknown = names.filter((n) => !isOneOf(FEATURES, n));
  if (unknown.length > 0) throw new Error(`Unknown feature ${unknown.join(', ')}; known: ${FEATURES.join(', ')}`);
  return [...new Set(known)];
}
