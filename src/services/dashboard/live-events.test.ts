import { describe, expect, it } from 'vitest';
import type { LiveState, LiveStateRepository } from '../../storage/repositories/live-state.repository.js';
import { LiveEvents, type LiveEvent } from './live-events.js';

/** A repository whose state the test sets, counting the reads. */
function fakeState() {
  const states = new Map<number, LiveState>();
  const reads: number[] = [];
  const repo = {
    async of(accountId: number) {
      reads.push(accountId);
      return states.get(accountId) ?? { cameras: '', lastAlertId: 0, lastPlateReadId: 0 };
    },
    async alertsAfter(accountId: number, afterId: number) {
      const last = states.get(accountId)?.lastAlertId ?? 0;
      return Array.from({ length: last - afterId }, (_, i) => ({ id: afterId + i + 1, licenseId: 1, createdAt: 0, cameras: [] }));
    },
  } as unknown as LiveStateRepository;
  return { states, reads, repo };
}

const tick = () => new Promise((r) => setTimeout(r, 30));

describe('LiveEvents', () => {
  it('tells an account about camera changes, each new alert and new plate reads, and nothing else', async () => {
    const { states, repo } = fakeState();
    const live = new LiveEvents(repo, { intervalMs: 10 });
    const seen: LiveEvent[] = [];
    const other: LiveEvent[] = [];
    states.set(1, { cameras: '1:normal:5', lastAlertId: 3, lastPlateReadId: 10 });
    const stop = live.subscribe(1, (e) => seen.push(e));
    const stopOther = live.subscribe(2, (e) => other.push(e));
    await tick();
    expect(seen).toEqual([]); // the first read is the baseline

    states.set(1, { cameras: '1:anomaly:6', lastAlertId: 5, lastPlateReadId: 10 });
    await tick();
    expect(seen.filter((e) => e.type === 'cameras')).toHaveLength(1);
    expect(seen.flatMap((e) => (e.type === 'alert' ? [e.alert.id] : []))).toEqual([4, 5]);
    expect(other).toEqual([]);
    expect(seen.filter((e) => e.type === 'plates')).toEqual([]);

    // New plate reads: one event, however many.
    states.set(1, { cameras: '1:anomaly:6', lastAlertId: 5, lastPlateReadId: 13 });
    await tick();
    expect(seen.filter((e) => e.type === 'plates')).toEqual([{ type: 'plates', count: 3 }]);
    stop();
    stopOther();
    live.close();
  });

  it('shares one watcher per account and stops reading when nobody listens', async () => {
    const { reads, repo } = fakeState();
    const live = new LiveEvents(repo, { intervalMs: 10 });
    const a = live.subscribe(7, () => {});
    const b = live.subscribe(7, () => {});
    expect(live.watchedAccounts).toBe(1);
    a();
    expect(live.watchedAccounts).toBe(1);
    b();
    expect(live.watchedAccounts).toBe(0);
    await tick();
    const count = reads.length;
    await tick();
    expect(reads.length).toBe(count);
  });

  it('ends every listener on close and refuses new ones', () => {
    const { repo } = fakeState();
    const live = new LiveEvents(repo, { intervalMs: 10 });
    const events: string[] = [];
    live.subscribe(1, (e) => events.push(`1:${e.type}`));
    live.subscribe(2, (e) => events.push(`2:${e.type}`));
    live.close();
    expect(events.sort()).toEqual(['1:closing', '2:closing']);
    live.subscribe(3, (e) => events.push(`3:${e.type}`));
    expect(events).toContain('3:closing');
    expect(live.watchedAccounts).toBe(0);
  });
});
