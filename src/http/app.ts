import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Container } from '../container.js';
import { VERSION } from '../version.js';
import { authPlugin } from './plugins/auth.plugin.js';
import { uploadAdmissionPlugin } from './plugins/upload-admission.plugin.js';
import { errorsPlugin } from './plugins/errors.plugin.js';
import { metricsPlugin } from './plugins/metrics.plugin.js';
import { openapiPlugin } from './plugins/openapi.plugin.js';
import { cameraMonitoringRoutes } from './routes/camera-monitoring/index.js';
import { dashboardRoutes } from './routes/dashboard/index.js';
import { imageRoutes } from './routes/images/images.routes.js';
import { opsRoutes } from './routes/ops/ops.routes.js';
import { ocrRoutes } from './routes/recognition/ocr.routes.js';
import { onpremInfoRoutes } from './routes/recognition/onprem.routes.js';
import { plateHistoryRoutes } from './routes/recognition/plate-history.routes.js';
import { plateRoutes } from './routes/recognition/plates.routes.js';
import { codeProjectRoutes } from './routes/recognition/codeproject.routes.js';
import { watchlistRoutes } from './routes/recognition/watchlist.routes.js';
import { webhookRoutes } from './routes/webhooks/webhooks.routes.js';

export interface BuildAppOptions {
  logger?: boolean;
  /** How long a client may take to send its whole request (slow loris); 60 s by default. */
  requestTimeoutMs?: number;
}

/** Builds the HTTP application; it does not listen (tests use app.inject). */
export async function buildApp(container: Container, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = container;
  const requestTimeout = options.requestTimeoutMs ?? 60_000;
  const app = Fastify({
    logger: options.logger === false ? false : {
      level: config.logLevel,
      // Signed image URLs and sign-in links carry their credential in the query: keep it out of the logs.
      serializers: { req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }) },
      // Headers reach the log elsewhere too (@fastify/multipart logs its busboy options at trace).
      redact: ['req.headers.authorization', 'req.headers.cookie', '*.headers.authorization', '*.headers.cookie'],
    },
    // Clients post with and without the trailing slash; answer both without a redirect.
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: Math.ceil(config.limits.maxUploadBytes * 1.4) + 64 * 1024,
    trustProxy: false,
    // A client that trickles its request (slow loris) is cut off instead of holding a socket.
    // Node reads requestTimeout when the server is created: Fastify's own option, set afterwards,
    // left a trickling body uncut, so it goes to http.createServer too. Node checks for expired
    // requests every connectionsCheckingInterval (30 s by default, which would let a 60 s timeout
    // run to 90 s): check often enough to cut close to the timeout.
    requestTimeout,
    http: { requestTimeout, connectionsCheckingInterval: Math.min(5_000, Math.max(100, requestTimeout / 4)) },
    connectionTimeout: 120_000,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(errorsPlugin);
  await app.register(uploadAdmissionPlugin, { budgetBytes: config.limits.uploadMemoryBytes, unknownLengthBytes: app.initialConfig.bodyLimit ?? config.limits.maxUploadBytes, metrics: container.metrics });
  container.metrics.watchUploads(() => app.uploadsInFlight());
  await app.register(cors, { origin: '*', methods: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] });
  // Some recognition clients post urlencoded forms (base64 image in `upload`).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const fields: Record<string, string[]> = {};
    for (const [k, v] of new URLSearchParams(body as string)) (fields[k] ??= []).push(v);
    done(null, fields);
  });
  await app.register(multipart, { limits: { fileSize: config.limits.maxUploadBytes, files: 4, fields: 32, parts: 40 } });
  // The document first: it records every route registered after it, /metrics included.
  await app.register(openapiPlugin, { version: VERSION });
  await app.register(metricsPlugin, { shared: container.metrics.registry });
  await app.register(authPlugin, { tokens: container.tokens });

  await app.register(opsRoutes, { readiness: container.readiness });
  await app.register(imageRoutes, { images: container.images });
  const plateOptions = {
    prefix: '/v1', plates: container.plates, usage: container.usage, fetch: container.notifications.fetch, limiter: container.rateLimiter,
    maxUploadBytes: config.limits.plateMaxUploadBytes, ratePerSecond: config.limits.recognitionRatePerSecond,
  };
  if (config.profile === 'onprem') {
    // The on-premise server: the plate reader without tokens, and /info/.
    const onprem = { account: () => container.onpremAccount(), maxCalls: config.onprem.maxCalls };
    await app.register(plateRoutes, { ...plateOptions, onprem });
    await app.register(codeProjectRoutes, { ...plateOptions, onprem });
    await app.register(onpremInfoRoutes, {
      ...onprem, usage: container.usage, webhooks: container.notifications.webhooks, licenseKey: config.onprem.licenseKey,
    });
    return app;
  }
  await app.register(cameraMonitoringRoutes, {
    camera: container.camera, licenses: container.licenses, images: container.images, limiter: container.rateLimiter,
    maxUploadBytes: config.limits.maxUploadBytes, uploadRatePerSecond: config.limits.uploadRatePerSecond,
  });
  await app.register(webhookRoutes, { prefix: '/v1', webhooks: container.notifications.webhooks });
  await app.register(ocrRoutes, {
    prefix: '/v1', ocr: container.ocr, usage: container.usage, fetch: container.notifications.fetch, limiter: container.rateLimiter,
    maxUploadBytes: config.limits.maxUploadBytes, ratePerSecond: config.limits.recognitionRatePerSecond,
  });
  await app.register(plateRoutes, plateOptions);
  await app.register(codeProjectRoutes, plateOptions);
  await app.register(plateHistoryRoutes, { prefix: '/v1', history: container.plateHistory, limiter: container.rateLimiter, ratePerSecond: config.limits.recognitionRatePerSecond });
  await app.register(watchlistRoutes, { prefix: '/v1', watchlists: container.watchlists });
  await app.register(dashboardRoutes, {
    pages: container.dashboard, cameras: container.camera.cameras, webhooks: container.notifications.webhooks, ocr: container.ocr, plates: container.plates, history: container.plateHistory, watchlists: container.watchlists,
    maxUploadBytes: container.config.limits.maxUploadBytes, maxPixels: container.config.images.maxPixels, secureCookies: container.config.publicUrl.startsWith('https:'),
  });
  return app;
}

function redactUrl(url: string): string {
  // signature: signed image URLs; token: e-mailed dashboard sign-in links.
  return url.replace(/([?&](?:signature|token)=)[^&]*/g, '$1[redacted]');
}
