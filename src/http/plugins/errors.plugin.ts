import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../services/errors.js';
import { StorageFullError, StorageUnavailableError } from '../../storage/blobs/blob-store.js';
import { isDatabaseUnavailable } from '../../storage/db/unavailable.js';
import { ImageDecodeError } from '../../vision/image/decode.js';
import { errorBody, type ErrorFamily } from '../error-shapes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    family?: ErrorFamily;
  }
}

/** Maps every error to a status and the family's error shape. Unknown errors are 500 with a
 * generic message: internals stay in the log, never in the response. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const family = request.routeOptions.config?.family ?? 'camera';
    const { status, code, message, headers } = classify(err);
    if (status >= 500) request.log.error({ err }, 'request failed');
    else request.log.info({ code, status }, message);
    void reply.code(status).headers(headers).send(errorBody(family, status, code, message));
  });

  // Every route's path as a pattern and its methods: a path served with other methods is a 405.
  const routes: Array<{ pattern: RegExp; methods: string[] }> = [];
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    // A catch-all (CORS preflight answers OPTIONS on every path) would make every path known.
    if (url.replace(/^\//, '') === '*') return;
    routes.push({ pattern: routePattern(url), methods: ([] as string[]).concat(route.method) });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))];
    if (allowed.length > 0) {
      const allow = allowed.sort().join(', ');
      void reply.code(405).header('allow', allow).send(errorBody('camera', 405, 'method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allow}.`));
      return;
    }
    void reply.code(404).send(errorBody('camera', 404, 'route_not_found', `No route ${request.method} ${path}.`));
  });
});

/** A Fastify route path (`/v1/:license_id/cameras/*`) as a regular expression over request
 * paths, a trailing slash optional (the router ignores it). */
export function routePattern(url: string): RegExp {
  const body = url.replace(/\/+$/, '').split('/').map((part) => {
    if (part.startsWith(':')) return '[^/]+';
    if (part === '*') return '.*';
    return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }).join('/');
  return new RegExp(`^${body}/?$`);
}

function classify(err: FastifyError | AppError | Error): { status: number; code: string; message: string; headers: Record<string, string> } {
  if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message, headers: err.headers };
  if (err instanceof ImageDecodeError) return { status: 400, code: `image_${err.reason}`, message: err.message, headers: {} };
  if (err instanceof StorageFullError) {
    return { status: 503, code: 'storage_full', message: 'Storage is full: the upload was not kept. Try again later.', headers: { 'retry-after': '60' } };
  }
  if (err instanceof StorageUnavailableError) {
    return { status: 503, code: 'storage_unavailable', message: 'The image store is unavailable: the upload was not kept. Try again shortly.', headers: { 'retry-after': '5' } };
  }
  if (isDatabaseUnavailable(err)) {
    return { status: 503, code: 'database_unavailable', message: 'The database is unavailable: nothing was changed. Try again shortly.', headers: { 'retry-after': '5' } };
  }
  const fe = err as FastifyError;
  if (fe.validation) return { status: 400, code: 'invalid_request', message: validationMessage(fe), headers: {} };
  switch (fe.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
      return { status: 413, code: 'payload_too_large', message: 'The upload is larger than the size limit.', headers: {} };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 400, code: 'invalid_content_type', message: 'Send the request as multipart/form-data.', headers: {} };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: 'invalid_body', message: fe.message, headers: {} };
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: fe.statusCode, code: 'bad_request', message: fe.message, headers: {} };
  }
  return { status: 500, code: 'internal_error', message: 'Internal error.', headers: {} };
}

function validationMessage(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return err.message;
  const where = err.validationContext ?? 'request';
  const field = first.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : (first.params as { missingProperty?: string })?.missingProperty;
  // A union of literals fails as one `const` error per literal ("must be equal to constant"):
  // name the values it takes instead.
  const allowed = (err.validation ?? []).filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
    .map((e) => String((e.params as { allowedValue?: unknown }).allowedValue));
  const message = allowed.length > 0 ? `must be one of ${allowed.join(', ')}` : first.message ?? 'invalid value';
  return `Invalid ${where}${field ? ` field "${field}"` : ''}: ${message}.`;
}
