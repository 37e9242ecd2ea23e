import { describe, expect, it } from 'vitest';
import { usagePeriod } from './usage.js';

describe('usagePeriod', () => {
  it.each([
    ['2026-11-21T05:00:00Z', '2026-11', 11, 2026, '2026-12-01T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2026-12', 12, 2026, '2027-01-01T00:00:00.000Z'],
    ['2024-02-29T12:00:00Z', '2024-02', 2, 2024, '2024-03-01T00:00:00.000Z'],
    ['2027-01-01T00:00:00Z', '2027-01', 1, 2027, '2027-02-01T00:00:00.000Z'],
  ])('%s is period %s and resets on %s', (now, key, month, year, resets) => {
    const p = usagePeriod(new Date(now));
    expect([p.key, p.month, p.year, p.resetsOn.toISOString()]).toEqual([key, month, year, resets]);
  });
});
