/** Whether `value` is one of `choices`, narrowing it to their type (no cast at the caller). */
export function isOneOf<T extends string>(choices: readonly T[], value: string): value is T {
  return choices.some((choice) => choice === value);
}

/** A setting that names one of a few choices: unset or empty is `fallback`, case and surrounding
 * space do not matter, and anything else is an error that names the setting and its choices. */
export function parseChoice<T extends string>(setting: string, choices: readonly T[], fallback: T, value: string | undefined): T {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return fallback;
  if (isOneOf(choices, v)) return v;
  throw new Error(`${setting} must be one of ${choices.join(', ')}, got "${value}"`);
}
