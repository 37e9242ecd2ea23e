import type { Config } from './config/config.js';
import { createContainer } from './container.js';
import { buildApp } from './http/app.js';
import { listen } from './http/server.js';

/** `vigil serve`: the HTTP API (roles all and api) and the background workers (roles all and
 * worker). A worker-only process opens no port. */
export async function serve(config: Config): Promise<void> {
  const container = await createContainer(config);
  if (config.role !== 'api') container.startWorkers();
  if (config.role === 'worker') {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        // Jobs in flight get the grace period to finish; past it they are left to their lease
        // (another worker re-runs them, as after a crash) so a supervisor's stop never hangs.
        setTimeout(() => {
          console.error(JSON.stringify({ level: 40, msg: 'shutdown grace period over; jobs in flight are left to their lease' }));
          process.exit(1);
        }, Math.max(1000, config.shutdownGraceMs)).unref();
        void container.close().then(() => process.exit(0), () => process.exit(1));
      });
    }
    console.error(JSON.stringify({ level: 30, msg: 'vigil worker started', database: config.database.kind }));
    return;
  }
  const app = await buildApp(container);
  const { url } = await listen(app, {
    port: config.port,
    host: config.host,
    graceMs: config.shutdownGraceMs,
    onClosed: () => container.close(),
  });
  app.log.info({ url, role: config.role, profile: config.profile, database: config.database.kind }, 'vigil is listening');
}
