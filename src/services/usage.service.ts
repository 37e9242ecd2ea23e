import { DEFAULT_TOTAL_CALLS, USAGE_FAMILIES, usagePeriod, type UsageFamily } from '../domain/usage.js';
import type { UsageRepository } from '../storage/repositories/usage.repository.js';
import { errors } from './errors.js';
import { isOneOf } from '../domain/choice.js';

export interface UsageStatistics {
  usage: { calls: number; month: number; year: number; resets_on: string };
  total_calls: number;
}

/** Monthly call counting and quotas per account and API family. */
export class UsageService {
  constructor(private readonly usage: UsageRepository) {}

  async statistics(accountId: number, family: UsageFamily, now = new Date()): Promise<UsageStatistics> {
    const period = usagePeriod(now);
    return {
      usage: { calls: await this.usage.calls(accountId, family, period.key), month: period.month, year: period.year, resets_on: period.resetsOn.toISOString() },
      total_calls: await this.totalCalls(accountId, family),
    };
  }

  /** Counts the call or throws 403 when the month's allowance is used up. Returns a refund
   * function for calls that end up not being served. */
  async takeCall(accountId: number, family: UsageFamily, now = new Date()): Promise<() => Promise<void>> {
    const period = usagePeriod(now);
    const limit = await this.totalCalls(accountId, family);
    if (!(await this.usage.takeCall(accountId, family, period.key, limit))) {
      throw errors.forbidden(`API call limit reached: ${limit} calls per month; the counter resets on ${period.resetsOn.toISOString()}.`, 'quota_exceeded');
    }
    return () => this.usage.refundCall(accountId, family, period.key);
  }

  async totalCalls(accountId: number, family: UsageFamily): Promise<number> {
    return (await this.usage.totalCalls(accountId, family)) ?? DEFAULT_TOTAL_CALLS;
  }

  async setTotalCalls(accountId: number, family: string, totalCalls: number): Promise<void> {
    if (!isOneOf(USAGE_FAMILIES, family)) {
      throw errors.badRequest(`Unknown family "${family}"; known: ${USAGE_FAMILIES.join(', ')}.`, 'invalid_family');
    }
    if (!Number.isInteger(totalCalls) || totalCalls < 0) throw errors.badRequest('total calls must be a whole number of at least 0.', 'invalid_quota');
    await this.usage.setTotalCalls(accountId, family, totalCalls);
  }
}
