export interface ExitLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string): void;
  error(msg: string, err: unknown): void;
}

/**
 * On SIGTERM or SIGINT, runs `close` and exits 0 (1 if it failed). Past `deadlineMs` the
 * process exits 1 whatever is still running: jobs in flight are left to their lease (another
 * worker re-runs them, as after a crash), so a supervisor's stop never hangs.
 */
export function exitOnSignals(close: () => Promise<void>, deadlineMs: number, log: ExitLog): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      log.info('shutting down', { signal });
      setTimeout(() => {
        log.warn('shutdown deadline passed; exiting, jobs in flight are left to their lease');
        process.exit(1);
      }, deadlineMs).unref();
      close().then(
        () => process.exit(0),
        (err) => {
          log.error('shutdown failed', err);
          process.exit(1);
        },
      );
    });
  }
}
