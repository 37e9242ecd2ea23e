/** API families whose calls are counted against a monthly allowance. */
export const USAGE_FAMILIES = ['ocr', 'vin', 'trailer-id', 'plate-reader'] as const;
export type UsageFamily = (typeof USAGE_FAMILIES)[number];

/** Default monthly calls per family when no quota was set for the account. */
export const DEFAULT_TOTAL_CALLS = 2500;

export interface UsagePeriod {
  /** `YYYY-MM`, the counter's key. */
  key: string;
  month: number;
  year: number;
  /** First instant of the next month (UTC), when the counter starts again at 0. */
  resetsOn: Date;
}

export function usagePeriod(now: Date): UsagePeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return {
    key: `${year}-${String(month).padStart(2, '0')}`,
    month,
    year,
    resetsOn: new Date(Date.UTC(year, month, 1)),
  };
}
