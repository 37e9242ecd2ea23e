import type { TypedApp } from '../../typed-app.js';
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
import { ErrorDetail, field, imageFields, parseCameraId, parseTimestamp, Statistics, throttlePerToken, useRecognitionErrors } from './recognition-params.js';

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

// The shapes below describe the answer for the OpenAPI document; `additionalProperties` stays
// open on each so the serializer never drops a field an existing client reads.
const open = { additionalProperties: true } as const;
const Box = Type.Object({ xmin: Type.Number(), ymin: Type.Number(), xmax: Type.Number(), ymax: Type.Number() }, open);
const Scored = <T extends ReturnType<typeof Type.String>>(key: string, value: T) => Type.Object({ [key]: value, score: Type.Number() }, open);
const VehicleType = Type.String({ description: 'Big Truck, Bus, Motorcycle, Pickup Truck, Sedan, SUV, Van or Unknown' });

const PlateResult = Type.Object({
  box: Box,
  plate: Type.String({ description: 'lower case, letters and digits only; empty for a plate found but not read (redaction mode)' }),
  region: Type.Object({ code: Type.String({ description: 'us, us-ca, br, gb, ...' }), score: Type.Number() }, open),
  score: Type.Number({ description: 'reading confidence, 0..1' }),
  candidates: Type.Array(Scored('plate', Type.String()), { description: 'other readings, best first (the first is `plate`)' }),
  dscore: Type.Number({ description: 'detection confidence, 0..1' }),
  vehicle: Type.Object({ score: Type.Number(), type: VehicleType, box: Box }, open),
  model_make: Type.Optional(Type.Array(Type.Object({ make: Type.String(), model: Type.String(), score: Type.Number() }, open), { description: 'mmc=true only' })),
  color: Type.Optional(Type.Array(Scored('color', Type.String()), { description: 'mmc=true only' })),
  orientation: Type.Optional(Type.Array(Scored('orientation', Type.String({ description: 'Front, Rear or Unknown' })), { description: 'mmc=true only' })),
}, { ...open, description: 'one plate (the default)' });

const Props = Type.Array(Scored('value', Type.String()));
const VehicleModeResult = Type.Object({
  plate: Type.Optional(Type.Object({ type: Type.String(), score: Type.Number(), box: Box, props: Type.Object({ plate: Props, region: Props }, open) }, open)),
  vehicle: Type.Optional(Type.Object({
    type: VehicleType, score: Type.Number(), box: Box,
    props: Type.Object({ make_model: Type.Array(Type.Object({ make: Type.String(), model: Type.String(), score: Type.Number() }, open)), orientation: Props, color: Props }, open),
  }, open)),
}, { ...open, description: 'detection_mode=vehicle: a vehicle and its plate, or a vehicle alone' });

const PlateResponse = Type.Object(
  {
    processing_time: Type.Number({ description: 'milliseconds' }),
    results: Type.Array(Type.Union([PlateResult, VehicleModeResult])),
    filename: Type.String(),
    version: Type.Integer(),
    camera_id: Type.Union([Type.String(), Type.Null()]),
    timestamp: Type.String(),
    usage: Type.Optional(Type.Object({ calls: Type.Integer(), max_calls: Type.Integer() }, { description: 'calls this month and the allowance (on-premise: MAX_CALLS, 0 for no limit)' })),
  },
  { additionalProperties: true },
);

/** POST /v1/plate-reader/ (hosted: 201 with a token; on-premise: 200 without one) and the
 * plate usage statistics. */
export async function plateRoutes(app: TypedApp, opts: PlateRouteOptions) {
  useRecognitionErrors(app);
  const onprem = opts.onprem;
  const throttle = throttlePerToken(opts.limiter, 'plates', opts.ratePerSecond);

  app.post('/plate-reader/', {
    // The on-premise server has no per-second limit (spec, section 8).
    onRequest: onprem ? [] : [app.requireAccount, throttle],
    config: {
      formBody: Type.Object({
        ...imageFields,
        regions: Type.Optional(Type.String({ description: 'Region codes that guide the reading, comma-separated or repeated (us-ca, br, gb)' })),
        mmc: Type.Optional(Type.String({ description: 'true: vehicle colour, orientation and make/model' })),
        config: Type.Optional(Type.String({ description: 'JSON: mode (fast, redaction), detection_mode (vehicle), threshold_d, threshold_o, region (strict), text_formats' })),
      }),
    },
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
    const body = await opts.plates.read(account, call, onprem ? 'onprem' : 'hosted');
    // `usage` in both profiles: clients written for an on-premise server (the Home Assistant
    // integration) read it from any server that is not the vendor's cloud.
    const stats = await opts.usage.statistics(account.id, 'plate-reader');
    const usage = { calls: stats.usage.calls, max_calls: onprem ? onprem.maxCalls : stats.total_calls };
    return reply.code(onprem ? 200 : 201).send({ ...body, usage });
  });

  if (!onprem) {
    app.get('/statistics/', {
      onRequest: app.requireAccount,
      schema: { summary: 'Plate reader calls this month', tags: ['plate-recognition'], security: [{ token: [] }], response: { 200: Statistics, 401: ErrorDetail } },
    }, async (request) => opts.usage.statistics(accountOf(request).id, 'plate-reader'));
  }
}
