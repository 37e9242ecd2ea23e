import { Type } from 'typebox';
import type { TypedApp } from '../../typed-app.js';

const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Record(Type.String(), Type.String(), { description: 'each part (database, redis, ...): ok, or why it is not ready' }),
});

/** A part of the deployment that must answer before this process takes traffic; throws why not. */
export type ReadinessCheck = () => Promise<unknown>;

export async function opsRoutes(app: TypedApp, opts: { readiness: ReadonlyMap<string, ReadinessCheck> }) {
  app.get('/healthz', {
    schema: { summary: 'Liveness: the process answers', tags: ['operations'], response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  /** Ready when every registered part (database, queue, models) answers. */
  app.get('/readyz', {
    schema: { summary: 'Readiness: every part this process needs answers', tags: ['operations'], response: { 200: Readiness, 503: Readiness } },
  }, async (_request, reply) => {
    const checks: Record<string, string> = {};
    let ready = true;
    for (const [name, check] of opts.readiness) {
      try {
        await check();
        checks[name] = 'ok';
      } catch (err) {
        ready = false;
        checks[name] = err instanceof Error ? err.message : 'not ready';
      }
    }
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' as const : 'not_ready' as const, checks });
  });
}
