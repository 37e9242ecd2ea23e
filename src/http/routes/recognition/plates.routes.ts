import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AccountRow } from '../../../storage/repositories/account.repository.js';
import { resolveImageSource } from '../../../services/image-input.js';
import type { SafeFetch } from '../../../services/outbound/safe-fetch.js';
import type { RateLimiter } from '../../../services/rate-limiter.js';
import type { PlateService } from '../../../services/recognition/plate.service.js';
import type { UsageService } from '../../../services/usage.service.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { readRecognitionRequest } from '../../recognition-request.js';
import { plateParams } from './plate-params.js';
import { ErrorDetail, field, parseCameraId, parseTimestamp, Statistics, throttlePerToken, useRecognitionErrors } from './recognition-params.js';

export interface PlateRouteOptions {
  plates: PlateService;
  usage: UsageService;
  fetch: SafeFetch;
  limiter: RateLimiter;
  maxUploadBytes: number;
  ratePerSecond: number;
  /** On-premise: no token (every call acts as this account), 200, `usage` in the answer. */
  onprem?: { account: () => Promise<AccountRow>; maxCalls: number };
}

const PlateResponse = Type.Object(
  {
    processing_time: Type.Number({ description: 'milliseconds' }),
    results: Type.Array(Type.Unknown(), { description: 'See compatibility.md: box, plate, region, score, candidates, dscore, vehicle (+ mmc fields)' }),
    filename: Type.String(),
    version: Type.Integer(),
    camera_id: Type.Union([Type.String(), Type.Null()]),
    timestamp: Type.String(),
  },
  { additionalProperties: true },
);

/** POST /v1/plate-reader/ (hosted: 201 with a token; on-premise: 200 without one) and the
 * plate usage statistics. Response bodies are built by the service for existing clients, so
 * they are sent as they are rather than filtered through a response schema. */
export async function plateRoutes(app: FastifyInstance, opts: PlateRouteOptions) {
  useRecognitionErrors(app);
  const onprem = opts.onprem;
  const throttle = throttlePerToken(opts.limiter, 'plates', opts.ratePerSecond);

  app.post('/plate-reader/', {
    // The on-premise server has no per-second limit (spec, section 8).
    onRequest: onprem ? [] : [app.requireAccount, throttle],
    schema: {
      summary: 'Find and read licence plates',
      tags: ['plate-recognition'],
      ...(onprem ? {} : { security: [{ token: [] }] }),
      consumes: ['multipart/form-data', 'application/json', 'application/x-www-form-urlencoded'],
      response: { 200: PlateResponse, 201: PlateResponse, 400: ErrorDetail, 401: ErrorDetail, 403: ErrorDetail, 413: ErrorDetail, 429: ErrorDetail, 503: ErrorDetail },
    },
  }, async (request, reply) => {
    const account = onprem ? await onprem.account() : accountOf(request);
    const req = await readRecognitionRequest(request, opts.maxUploadBytes);
    const { options, vehicleMode } = plateParams(req);
    const timestamp = parseTimestamp(field(req, 'timestamp'));
    const cameraId = parseCameraId(field(req, 'camera_id'));
    const image = await resolveImageSource(req.source, { maxBytes: opts.maxUploadBytes, fetch: opts.fetch });
    const call = { image: image.bytes, filename: image.filename, cameraId, timestamp, options, vehicleMode };
    if (!onprem) return reply.code(201).send(await opts.plates.read(account, call, 'hosted'));
    const body = await opts.plates.read(account, call, 'onprem');
    const stats = await opts.usage.statistics(account.id, 'plate-reader');
    return reply.code(200).send({ ...body, usage: { calls: stats.usage.calls, max_calls: onprem.maxCalls } });
  });

  if (!onprem) {
    app.get('/statistics/', {
      onRequest: app.requireAccount,
      schema: { summary: 'Plate reader calls this month', tags: ['plate-recognition'], security: [{ token: [] }], response: { 200: Statistics, 401: ErrorDetail } },
    }, async (request) => opts.usage.statistics(accountOf(request).id, 'plate-reader'));
  }
}
