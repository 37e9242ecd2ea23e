import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import type { Container } from '../container.js';
import { VERSION } from '../version.js';
import { authPlugin } from './plugins/auth.plugin.js';
import { errorsPlugin } from './plugins/errors.plugin.js';
import { metricsPlugin } from './plugins/metrics.plugin.js';
import { openapiPlugin } from './plugins/openapi.plugin.js';
import { cameraMonitoringRoutes } from './routes/camera-monitoring/index.js';
import { imageRoutes } from './routes/images/images.routes.js';
import { opsRoutes } from './routes/ops/ops.routes.js';

export interface BuildAppOptions {
  logger?: boolean;
}

/** Builds the HTTP application; it does not listen (tests use app.inject). */
export async function buildApp(container: Container, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = container;
  const app = Fastify({
    logger: options.logger === false ? false : {
      level: config.logLevel,
      // Signed image URLs carry their credential in the query: keep it out of the logs.
      serializers: { req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }) },
      redact: ['req.headers.authorization'],
    },
    // Clients post with and without the trailing slash; answer both without a redirect.
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: Math.ceil(config.limits.maxUploadBytes * 1.4) + 64 * 1024,
    trustProxy: false,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(errorsPlugin);
  await app.register(cors, { origin: '*', methods: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] });
  await app.register(metricsPlugin, { registry: new Registry() });
  await app.register(openapiPlugin, { version: VERSION });
  await app.register(authPlugin, { tokens: container.tokens });

  await app.register(opsRoutes, { container });
  await app.register(imageRoutes, { images: container.images });
  await app.register(cameraMonitoringRoutes, { container });
  return app;
}

function redactUrl(url: string): string {
  return url.replace(/(signature=)[^&]*/g, '$1[redacted]');
}
