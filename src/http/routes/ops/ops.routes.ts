import type { TypedApp } from '../../typed-app.js';
import type { Container } from '../../../container.js';

export async function opsRoutes(app: TypedApp, opts: { container: Container }) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  /** Ready when every registered part (database, queue, models) answers. */
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<string, string> = {};
    let ready = true;
    for (const [name, check] of opts.container.readiness) {
      try {
        await check();
        checks[name] = 'ok';
      } catch (err) {
        ready = false;
        checks[name] = err instanceof Error ? err.message : 'not ready';
      }
    }
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
}
