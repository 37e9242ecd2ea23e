import { errors } from '../../../services/errors.js';

/** Default page of the list endpoints that can grow without bound (logs, alerts). */
export const DEFAULT_PAGE_SIZE = 1000;

const DAY_MS = 86_400_000;

/** `start` keeps items on or after that day; `end` keeps items before the end of that day. */
export function dayRange(start: string | undefined, end: string | undefined): { from?: number; until?: number } {
  const from = start === undefined ? undefined : parseDay(start, 'start');
  const until = end === undefined ? undefined : parseDay(end, 'end') + DAY_MS;
  if (from !== undefined && until !== undefined && from >= until) throw errors.badRequest('start must not be after end.', 'invalid_date');
  return { from, until };
}

function parseDay(day: string, name: string): number {
  const t = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day) {
    throw errors.badRequest(`Invalid ${name} date "${day}"; use YYYY-MM-DD.`, 'invalid_date');
  }
  return t;
}

export function parseBoolean(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'True' || value === '1') return true;
  if (value === 'false' || value === 'False' || value === '0') return false;
  throw errors.badRequest(`Invalid ${name} "${value}"; use true or false.`, 'invalid_query');
}
