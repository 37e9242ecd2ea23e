import type { Config } from './config/config.js';
import { createContainer } from './container.js';
import { buildApp } from './http/app.js';
import { listen } from './http/server.js';
import { exitOnSignals, type ExitLog } from './exit-on-signals.js';
import { leanMemoryWarning } from './vision/runtime/lean-memory.js';

/** The worker role has no Fastify logger: the same JSON lines on stderr. */
const stderrLog: ExitLog = {
  info: (msg, fields) => console.error(JSON.stringify({ level: 30, msg, ...fields })),
  warn: (msg) => console.error(JSON.stringify({ level: 40, msg })),
  error: (msg, err) => console.error(JSON.stringify({ level: 50, msg, err: String(err) })),
};

/** `vigil serve`: the HTTP API (roles all and api) and the background workers (roles all and
 * worker). A worker-only process opens no port. */
export async function serve(config: Config): Promise<void> {
  const memoryWarning = leanMemoryWarning(config.vision.inferenceMemory, process.env);
  if (memoryWarning) stderrLog.warn(memoryWarning);
  const container = await createContainer(config);
  if (config.role !== 'api') container.startWorkers();
  if (config.role === 'worker') {
    // Jobs in flight get the grace period to finish.
    exitOnSignals(() => container.close(), Math.max(1000, config.shutdownGraceMs), stderrLog);
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
