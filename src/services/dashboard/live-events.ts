import type { LiveState, LiveStateRepository } from '../../storage/repositories/live-state.repository.js';

export type LiveAlert = Awaited<ReturnType<LiveStateRepository['alertsAfter']>>[number];
export type LiveEvent = { type: 'cameras' } | { type: 'alert'; alert: LiveAlert } | { type: 'plates'; count: number } | { type: 'closing' };
type Listener = (event: LiveEvent) => void;

/** How often each connected account's state is read. */
export const LIVE_INTERVAL_MS = 2000;

/** Tells each signed-in page what changed for its account. One watcher per connected account
 * polls three cheap queries, so changes made by any process sharing the database (workers,
 * other API instances) are seen; accounts nobody watches cost nothing. */
export class LiveEvents {
  private readonly watchers = new Map<number, Watcher>();
  private closed = false;

  constructor(private readonly state: LiveStateRepository, private readonly options: { intervalMs?: number; onError?: (err: unknown) => void } = {}) {}

  /** Starts watching the account (if nobody did yet); returns the unsubscribe function. */
  subscribe(accountId: number, listener: Listener): () => void {
    if (this.closed) {
      listener({ type: 'closing' });
      return () => {};
    }
    let watcher = this.watchers.get(accountId);
    if (!watcher) {
      watcher = new Watcher(accountId, this.state, this.options.intervalMs ?? LIVE_INTERVAL_MS, this.options.onError ?? (() => {}));
      this.watchers.set(accountId, watcher);
    }
    watcher.listeners.add(listener);
    return () => {
      watcher.listeners.delete(listener);
      if (watcher.listeners.size === 0 && this.watchers.get(accountId) === watcher) {
        watcher.stop();
        this.watchers.delete(accountId);
      }
    };
  }

  /** Ends every stream (server shutdown: open streams must not hold it up). */
  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) {
      watcher.stop();
      for (const listener of [...watcher.listeners]) listener({ type: 'closing' });
    }
    this.watchers.clear();
  }

  get watchedAccounts(): number {
    return this.watchers.size;
  }
}

class Watcher {
  readonly listeners = new Set<Listener>();
  private last: LiveState | undefined;
  private readonly timer: NodeJS.Timeout;
  private busy = false;

  constructor(private readonly accountId: number, private readonly state: LiveStateRepository, intervalMs: number, private readonly onError: (err: unknown) => void) {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = await this.state.of(this.accountId);
      const before = this.last;
      this.last = now;
      if (!before) return;
      if (now.cameras !== before.cameras) this.emit({ type: 'cameras' });
      if (now.lastPlateReadId > before.lastPlateReadId) this.emit({ type: 'plates', count: now.lastPlateReadId - before.lastPlateReadId });
      if (now.lastAlertId > before.lastAlertId) {
        for (const alert of await this.state.alertsAfter(this.accountId, before.lastAlertId)) this.emit({ type: 'alert', alert });
      }
    } catch (err) {
      this.onError(err);
    } finally {
      this.busy = false;
    }
  }

  private emit(event: LiveEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
