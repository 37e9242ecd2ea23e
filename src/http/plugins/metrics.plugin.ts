import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics on /metrics: process defaults and request durations per route. */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { registry: Registry }) => {
  const { registry } = opts;
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'vigil_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.labels(request.method, route, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    void reply.type(registry.contentType);
    return registry.metrics();
  });
});
