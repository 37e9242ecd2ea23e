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
