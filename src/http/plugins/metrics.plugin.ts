import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics on /metrics: process defaults and request durations per route (this
 * app's own registry), with what the services report (`shared`, the container's). */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { shared: Registry }) => {
  const own = new Registry();
  collectDefaultMetrics({ register: own });
  const duration = new Histogram({
    name: 'vigil_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [own],
  });
  // Merged after every metric of this app is registered: a merge copies the metrics it finds.
  const registry = Registry.merge([own, opts.shared]);
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.labels(request.method, route, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
  });
  app.get('/metrics', {
    schema: { summary: 'Prometheus metrics (text exposition format; docs/operations.md lists them)', tags: ['operations'], produces: ['text/plain'] },
  }, async (_request, reply) => {
    void reply.type(registry.contentType);
    return registry.metrics();
  });
});
