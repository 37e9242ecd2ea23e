import type { TypedApp } from '../../typed-app.js';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { CamerasService } from '../../../services/camera-monitoring/cameras.service.js';
import type { Dashboard } from '../../../services/dashboard/index.js';
import type { OcrService } from '../../../services/recognition/ocr.service.js';
import type { PlateHistoryService } from '../../../services/recognition/plate-history.service.js';
import type { PlateService } from '../../../services/recognition/plate.service.js';
import type { WatchlistService } from '../../../services/recognition/watchlist.service.js';
import type { WebhookService } from '../../../services/webhooks/webhook.service.js';
import { SESSION_TTL_MS } from '../../../services/dashboard/session.service.js';
import { AppError } from '../../../services/errors.js';
import { ImageDecodeError } from '../../../vision/image/decode.js';
import { accountPages } from './account.routes.js';
import { assetRoutes } from './assets.routes.js';
import { authRoutes } from './auth.routes.js';
import { cameraPages } from './cameras.routes.js';
import { liveRoutes } from './live.routes.js';
import { thumbnailRoutes } from './thumbnails.routes.js';
import { errorPage } from './pages.view.js';
import { platePages } from './plates.routes.js';
import { recognitionPages } from './recognition.routes.js';
import { watchlistPages } from './watchlists.routes.js';
import { pageContext } from './session.js';

// No inline script or style anywhere: the policy can forbid both. Images may be data: URLs
// (the recognition page shows the uploaded image without storing it).
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The web dashboard under `/` (server-rendered pages, session cookies, CSRF tokens). API paths
 * are not touched; the pages are hidden from the OpenAPI document. */
export interface DashboardRouteOptions {
  pages: Dashboard;
  cameras: CamerasService;
  webhooks: WebhookService;
  ocr: OcrService;
  plates: PlateService;
  history: PlateHistoryService;
  watchlists: WatchlistService;
  maxUploadBytes: number;
  maxPixels: number;
  /** Cookies only over HTTPS (PUBLIC_URL is https). */
  secureCookies: boolean;
}

export async function dashboardRoutes(app: TypedApp, opts: DashboardRouteOptions) {
  const { sessions, dashboard, loginLinks, live, thumbnails } = opts.pages;
  const { maxUploadBytes } = opts;

  app.decorateRequest('dashboardSession', null);
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  app.setErrorHandler((err: FastifyError | AppError | Error, request, reply) => {
    let { status, message } = classify(err);
    // Another account's license is "forbidden" in the API; the dashboard does not confirm it exists.
    if (status === 403 && err instanceof AppError && err.code === 'not_owner') ({ status, message } = { status: 404, message: 'Not found.' });
    if (status >= 500) request.log.error({ err }, 'dashboard request failed');
    if (err instanceof AppError) void reply.headers(err.headers);
    if (request.url.startsWith('/live/')) return reply.code(status).send({ message, code: err instanceof AppError ? err.code : 'error' });
    return reply.code(status).type('text/html').send(errorPage(contextOf(request), status, message).value);
  });

  await app.register(assetRoutes);
  await app.register(authRoutes, { sessions, loginLinks, secureCookies: opts.secureCookies, ttlMs: SESSION_TTL_MS });
  await app.register(cameraPages, { dashboard, cameras: opts.cameras, sessions, maxUploadBytes });
  await app.register(accountPages, { dashboard, webhooks: opts.webhooks, sessions });
  await app.register(liveRoutes, { dashboard, sessions, live });
  await app.register(thumbnailRoutes, { sessions, thumbnails });
  await app.register(platePages, { history: opts.history, watchlists: opts.watchlists, sessions });
  await app.register(watchlistPages, { watchlists: opts.watchlists, sessions });
  await app.register(recognitionPages, { dashboard, ocr: opts.ocr, plates: opts.plates, sessions, maxUploadBytes, maxPixels: opts.maxPixels });
}

function contextOf(request: FastifyRequest) {
  return request.dashboardSession ? pageContext(request) : undefined;
}

function classify(err: FastifyError | AppError | Error): { status: number; message: string } {
  if (err instanceof AppError) return { status: err.status, message: err.message };
  if (err instanceof ImageDecodeError) return { status: 400, message: err.message };
  const fe = err as FastifyError;
  if (fe.code === 'FST_REQ_FILE_TOO_LARGE' || fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, message: 'The file is larger than the upload limit.' };
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return { status: fe.statusCode, message: fe.message };
  return { status: 500, message: 'Internal error. Try again; if it persists, check the server log.' };
}
