import type { Config } from './config/config.js';
import { createContainer } from './container.js';
import { buildApp } from './http/app.js';
import { listen } from './http/server.js';

/** `vigil serve`: the HTTP API, and in role `all` or `worker` the background workers. */
export async function serve(config: Config): Promise<void> {
  const container = await createContainer(config);
  const app = await buildApp(container);
  const { url } = await listen(app, {
    port: config.port,
    host: config.host,
    graceMs: config.shutdownGraceMs,
    onClosed: () => container.close(),
  });
  app.log.info({ url, role: config.role, profile: config.profile, database: config.database.kind }, 'vigil is listening');
}
