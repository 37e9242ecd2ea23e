import type { Db } from '../db/database.js';

export class UsageRepository {
  constructor(private readonly db: Db) {}

  async calls(accountId: number, family: string, period: string): Promise<number> {
    const row = await this.db.selectFrom('usage_counters').select('calls').where('account_id', '=', accountId).where('family', '=', family).where('period', '=', period).executeTakeFirst();
    return row?.calls ?? 0;
  }

  /** Counts one call if the counter is below `limit`; returns whether it was counted. One
   * statement each, so concurrent calls on several processes cannot overshoot the limit. */
  async takeCall(accountId: number, family: string, period: string, limit: number): Promise<boolean> {
    await this.db
      .insertInto('usage_counters')
      .values({ account_id: accountId, family, period, calls: 0 })
      .onConflict((oc) => oc.columns(['account_id', 'family', 'period']).doNothing())
      .execute();
    const res = await this.db
      .updateTable('usage_counters')
      .set((eb) => ({ calls: eb('calls', '+', 1) }))
      .where('account_id', '=', accountId)
      .where('family', '=', family)
      .where('period', '=', period)
      .where('calls', '<', limit)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Gives back a call that was counted but not served (the engine failed). */
  async refundCall(accountId: number, family: string, period: string): Promise<void> {
    await this.db
      .updateTable('usage_counters')
      .set((eb) => ({ calls: eb('calls', '-', 1) }))
      .where('account_id', '=', accountId)
      .where('family', '=', family)
      .where('period', '=', period)
      .where('calls', '>', 0)
      .execute();
  }

  async totalCalls(accountId: number, family: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('quotas').select('total_calls').where('account_id', '=', accountId).where('family', '=', family).executeTakeFirst();
    return row?.total_calls;
  }

  async setTotalCalls(accountId: number, family: string, totalCalls: number): Promise<void> {
    await this.db
      .insertInto('quotas')
      .values({ account_id: accountId, family, total_calls: totalCalls })
      .onConflict((oc) => oc.columns(['account_id', 'family']).doUpdateSet({ total_calls: totalCalls }))
      .execute();
  }
}
