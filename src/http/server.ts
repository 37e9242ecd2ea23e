import type { FastifyInstance } from 'fastify';

/** Listens, and closes gracefully on SIGTERM/SIGINT: no new connections, in-flight requests
 * finish (bounded by graceMs), then `onClosed` releases workers and the database. */
export async function listen(
  app: FastifyInstance,
  options: { port: number; host: string; graceMs: number; onClosed: () => Promise<void> },
): Promise<{ url: string; stop: () => Promise<void> }> {
  const url = await app.listen({ port: options.port, host: options.host });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const timer = setTimeout(() => {
        app.log.warn('shutdown grace period over; closing remaining connections');
        app.server.closeAllConnections();
      }, options.graceMs);
      try {
        await app.close();
      } finally {
        clearTimeout(timer);
        await options.onClosed();
      }
    })();
    return stopping;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      // Connections get graceMs, then workers get as long to finish their jobs; past that the
      // jobs in flight are left to their lease (re-run elsewhere, as after a crash).
      setTimeout(() => {
        app.log.warn('shutdown took longer than twice the grace period; exiting, jobs in flight are left to their lease');
        process.exit(1);
      }, 2 * Math.max(1000, options.graceMs)).unref();
      stop().then(
        () => process.exit(0),
        (err) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { url, stop };
}
