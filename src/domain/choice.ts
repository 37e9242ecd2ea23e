/** A setting that names one of a few choices: unset or empty is `fallback`, case and surrounding
 * space do not matter, and anything else is an error that names the setting and its choices. */
export function parseChoice<T extends string>(setting: string, choices: readonly T[], fallback: T, value: string | undefined): T {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return fallback;
  if ((choices as readonly string[]).includes(v)) return v as T;
  throw new Error(`${setting} must be one of ${choices.join(', ')}, got "${value}"`);
}
