import type { FastifyInstance } from 'fastify';
import { exitOnSignals } from '../exit-on-signals.js';

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
  // Connections get graceMs, then workers get as long to finish their jobs.
  exitOnSignals(stop, 2 * Math.max(1000, options.graceMs), {
    info: (msg, fields) => app.log.info(fields ?? {}, msg),
    warn: (msg) => app.log.warn(msg),
    error: (msg, err) => app.log.error({ err }, msg),
  });
  return { url, stop };
}
