import type { TypedApp } from '../../typed-app.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../../../services/errors.js';
import { enforceRate, type RateLimiter } from '../../../services/rate-limiter.js';
import type { RecognitionRequest } from '../../recognition-request.js';
import type { ErrorFamily } from '../../error-shapes.js';
import { accountOf, requireFeature, tokenRateKey } from '../../plugins/auth.plugin.js';
import type { AccountRow } from '../../../storage/repositories/account.repository.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]00:?00)?$/;

export function field(req: RecognitionRequest, name: string): string | undefined {
  const v = req.fields.get(name)?.[0]?.trim();
  return v === '' ? undefined : v;
}

/** `timestamp` as the clients send it (ISO 8601 UTC, `YYYY-MM-DDTHH:MM:SS`), normalised to
 * milliseconds with a trailing Z; 400 when it is not a real UTC time. */
export function parseTimestamp(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const t = Date.parse(/Z|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  if (!ISO_UTC.test(value) || Number.isNaN(t)) throw errors.badRequest(`Invalid timestamp "${value}"; use ISO 8601 UTC, e.g. 2024-05-01T12:30:00Z.`, 'invalid_timestamp');
  return new Date(t).toISOString();
}

export function parseCameraId(value: string | undefined): string | undefined {
  if (value !== undefined && value.length > 128) throw errors.badRequest('camera_id must be at most 128 characters.', 'invalid_camera_id');
  return value;
}

/** The authenticated account of a plate route (history, visits, watchlists); 403 without the
 * plate-reader feature. */
export function plateAccountOf(request: FastifyRequest): AccountRow {
  const account = accountOf(request);
  requireFeature(account, 'plate-reader', 'Plate recognition is not enabled for this account.');
  return account;
}

/** Error body of the recognition families. */
export const ErrorDetail = Type.Object({ detail: Type.String(), status_code: Type.Integer(), code: Type.Optional(Type.String()) });

/** Usage statistics of one family for the current month. */
export const Statistics = Type.Object({
  usage: Type.Object({ calls: Type.Integer(), month: Type.Integer(), year: Type.Integer(), resets_on: Type.String() }),
  total_calls: Type.Integer(),
});

/** Marks every route of the plugin as one of an error family (error-shapes.ts). */
export function useErrorFamily(app: TypedApp, family: ErrorFamily): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), family };
  });
}

/** Marks every route of the plugin as a recognition route (its errors use ErrorDetail). */
export const useRecognitionErrors = (app: TypedApp) => useErrorFamily(app, 'recognition');

/** The image fields every recognition reader takes, for the OpenAPI document (the body is read
 * by readRecognitionRequest: multipart, JSON or urlencoded). */
export const imageFields = {
  upload: Type.Optional(Type.String({ format: 'binary', description: 'The image as a file; or base64 (a data: URL too), or an http(s) URL to fetch' })),
  upload_url: Type.Optional(Type.String({ description: 'An http(s) URL of the image to fetch' })),
  camera_id: Type.Optional(Type.String()),
  timestamp: Type.Optional(Type.String({ description: 'ISO 8601; echoed in the answer' })),
};

/** onRequest hook: 429 when the token sends more than `perSecond` requests of this kind. */
export function throttlePerToken(limiter: RateLimiter, kind: string, perSecond: number) {
  return async (request: FastifyRequest) => {
    await enforceRate(limiter, tokenRateKey(kind, request), perSecond, 'Request was throttled. Expected available in 1 second.', 'throttled');
  };
}
