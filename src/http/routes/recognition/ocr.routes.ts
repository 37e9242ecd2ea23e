import type { TypedApp } from '../../typed-app.js';
import { Type } from 'typebox';
import type { UsageFamily } from '../../../domain/usage.js';
import { errors } from '../../../services/errors.js';
import { resolveImageSource } from '../../../services/image-input.js';
import type { SafeFetch } from '../../../services/outbound/safe-fetch.js';
import type { RateLimiter } from '../../../services/rate-limiter.js';
import type { OcrService } from '../../../services/recognition/ocr.service.js';
import { OCR_TYPES, type OcrType } from '../../../vision/ocr/ocr.types.js';
import type { UsageService } from '../../../services/usage.service.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { readRecognitionRequest } from '../../recognition-request.js';
import { ErrorDetail, field, imageFields, parseCameraId, parseTimestamp, Statistics, throttlePerToken, useRecognitionErrors } from './recognition-params.js';
import { isOneOf } from '../../../domain/choice.js';

export interface OcrRouteOptions {
  ocr: OcrService;
  usage: UsageService;
  fetch: SafeFetch;
  limiter: RateLimiter;
  maxUploadBytes: number;
  ratePerSecond: number;
}

const ValueList = Type.Array(Type.Object({ value: Type.String() }));
const RecognitionResult = Type.Object({
  processing_time: Type.Number({ description: 'milliseconds' }),
  results: Type.Array(
    Type.Object({
      identifier: Type.Object({
        type: Type.Literal('text'),
        props: Type.Object({ code: ValueList, orientation: Type.Optional(ValueList), confidence: Type.Optional(Type.Number()) }),
        label: Type.Optional(Type.String()),
      }),
    }),
  ),
  filename: Type.String(),
  version: Type.Integer(),
  camera_id: Type.Union([Type.String(), Type.Null()]),
  timestamp: Type.String(),
});
const readerResponses = { 200: RecognitionResult, 400: ErrorDetail, 401: ErrorDetail, 403: ErrorDetail, 413: ErrorDetail, 429: ErrorDetail, 503: ErrorDetail };

/** The text recognition family: OCR (all types), VIN (deprecated) and trailer readers, each with
 * monthly statistics. Errors use the recognition shape {"detail", "status_code"}. */
export async function ocrRoutes(app: TypedApp, opts: OcrRouteOptions) {
  useRecognitionErrors(app);
  const throttle = throttlePerToken(opts.limiter, 'recognition', opts.ratePerSecond);

  const reader = (path: string, family: Extract<UsageFamily, 'ocr' | 'vin' | 'trailer-id'>, fixedType: OcrType | undefined, summary: string) =>
    app.post(path, {
      onRequest: [app.requireAccount, throttle],
      config: {
        formBody: Type.Object({
          ...imageFields,
          ...(fixedType ? {} : { type: Type.String({ description: 'vin, trailer_id, odometer, shipping_container or boat_reg_number' }) }),
        }),
      },
      schema: { summary, tags: ['text-recognition'], security: [{ token: [] }], consumes: ['multipart/form-data', 'application/json', 'application/x-www-form-urlencoded'], response: readerResponses },
    }, async (request, reply) => {
      const account = accountOf(request);
      if (!account.features.includes('ocr')) throw errors.forbidden('OCR is not enabled for this account.', 'feature_disabled');
      const req = await readRecognitionRequest(request, opts.maxUploadBytes);
      let type = fixedType;
      if (!type) {
        const given = field(req, 'type');
        if (!given) throw errors.badRequest('Missing required parameter: type.', 'missing_parameter');
        // Echo at most 40 characters of what was sent: a megabyte of it makes no better error.
        const shown = given.length > 40 ? `${given.slice(0, 40)}\u2026` : given;
        if (!isOneOf(OCR_TYPES, given)) throw errors.badRequest(`Unknown type "${shown}"; use one of ${OCR_TYPES.join(', ')}.`, 'invalid_type');
        type = given;
      }
      const timestamp = parseTimestamp(field(req, 'timestamp'));
      const cameraId = parseCameraId(field(req, 'camera_id'));
      const image = await resolveImageSource(req.source, { maxBytes: opts.maxUploadBytes, fetch: opts.fetch });
      const result = await opts.ocr.read(account, {
        type, family, image: image.bytes, filename: image.filename, cameraId, timestamp, withConfidence: family !== 'trailer-id',
      });
      if (family === 'vin') {
        void reply.header('deprecation', 'true').header('link', '</v1/ocr/reader/>; rel="successor-version"');
      }
      return reply.code(200).send(result);
    });

  reader('/ocr/reader/', 'ocr', undefined, 'Read a VIN, trailer ID, odometer, container code or boat number');
  reader('/vin/reader/', 'vin', 'vin', 'Read a VIN (deprecated: use /v1/ocr/reader/ with type=vin)');
  reader('/trailer-id/reader/', 'trailer-id', 'trailer_id', 'Read a trailer identifier');

  for (const [path, family] of [['/ocr/statistics/', 'ocr'], ['/vin/statistics/', 'vin'], ['/trailer-id/statistics/', 'trailer-id']] as const) {
    app.get(path, {
      onRequest: app.requireAccount,
      schema: { summary: `Calls this month (${family})`, tags: ['text-recognition'], security: [{ token: [] }], response: { 200: Statistics, 401: ErrorDetail } },
    }, async (request) => opts.usage.statistics(accountOf(request).id, family));
  }
}
