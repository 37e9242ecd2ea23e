import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Type } from 'typebox';
import { errors } from '../../../services/errors.js';
import { resolveImageSource } from '../../../services/image-input.js';
import type { PlateAnswer } from '../../../services/recognition/plate.service.js';
import type { TypedApp } from '../../typed-app.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { readRecognitionRequest } from '../../recognition-request.js';
import type { PlateRouteOptions } from './plates.routes.js';
import { plateParams } from './plate-params.js';
import { field, parseCameraId, throttlePerToken, useErrorFamily } from './recognition-params.js';

/** One plate as CodeProject.AI's ALPR module answers it. */
export interface CodeProjectPrediction {
  confidence: number;
  label: string;
  plate: string;
  x_min: number;
  y_min: number;
  x_max: number;
  y_max: number;
}

const Prediction = Type.Object({
  confidence: Type.Number({ description: 'reading confidence, 0..1' }),
  label: Type.String({ description: '"Plate: " and the plate' }),
  plate: Type.String({ description: 'upper case, letters and digits only' }),
  x_min: Type.Integer(), y_min: Type.Integer(), x_max: Type.Integer(), y_max: Type.Integer(),
}, { additionalProperties: true });

const Answer = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  count: Type.Integer(),
  predictions: Type.Array(Prediction),
  processMs: Type.Integer(), inferenceMs: Type.Integer(), analysisRoundTripMs: Type.Integer(),
  moduleId: Type.String(), moduleName: Type.String(), command: Type.String(), code: Type.Integer(),
  requestId: Type.String(), inferenceDevice: Type.String(), processedBy: Type.String(), timestampUTC: Type.String(),
}, { additionalProperties: true });

const Failure = Type.Object({ success: Type.Literal(false), error: Type.String(), code: Type.Integer(), reason: Type.String() });

/** POST /v1/image/alpr: CodeProject.AI Server's licence plate route, for the clients that call
 * it (Blue Iris, frigate_plate_recognizer's `code_project` mode, Home Assistant's CodeProject.AI
 * ALPR integration). The image is the form's `upload` or `image` file, else its first file; the read is
 * Vigil's plate reader, counted, kept in the history and sent to webhooks and MQTT like any
 * other. On-premise no token is needed, as with the plate reader there; hosted, the call needs
 * `Authorization: Token ...` like every hosted call. */
export async function codeProjectRoutes(app: TypedApp, opts: PlateRouteOptions) {
  useErrorFamily(app, 'codeproject');
  const onprem = opts.onprem;
  app.post('/image/alpr', {
    onRequest: onprem ? [] : [app.requireAccount, throttlePerToken(opts.limiter, 'plates', opts.ratePerSecond)],
    config: {
      formBody: Type.Object({
        upload: Type.Optional(Type.String({ format: 'binary', description: 'The image (also accepted as `image`)' })),
        min_confidence: Type.Optional(Type.String({ description: 'Leave out plates read with less confidence (0..1, default 0.4 as CodeProject.AI)' })),
        camera_id: Type.Optional(Type.String({ description: 'Vigil only: the camera, for the history, webhooks and MQTT' })),
      }),
    },
    schema: {
      summary: 'Read licence plates, answered as CodeProject.AI Server does',
      tags: ['plate-recognition'],
      ...(onprem ? {} : { security: [{ token: [] }] }),
      consumes: ['multipart/form-data'],
      response: { 200: Answer, 400: Failure, 401: Failure, 403: Failure, 413: Failure, 429: Failure, 503: Failure },
    },
  }, async (request) => {
    const started = performance.now();
    const account = onprem ? await onprem.account() : accountOf(request);
    // CodeProject.AI takes the form's first file whatever its name; its clients name it upload or image.
    const req = await readRecognitionRequest(request, opts.maxUploadBytes, ['upload', 'image', '*']);
    if (req.source?.kind !== 'bytes') throw errors.badRequest('No image supplied: send it as the multipart file "upload" or "image".', 'missing_image');
    const minConfidence = parseMinConfidence(field(req, 'min_confidence'));
    const image = await resolveImageSource(req.source, { maxBytes: opts.maxUploadBytes, fetch: opts.fetch });
    // `regions` and `config` as the plate reader takes them, for clients that send them.
    const { options } = plateParams(req);
    const call = { image: image.bytes, filename: image.filename, cameraId: parseCameraId(field(req, 'camera_id')), timestamp: undefined, options, vehicleMode: false };
    const answer = await opts.plates.read(account, call, onprem ? 'onprem' : 'hosted');
    return codeProjectAnswer(answer, minConfidence, Math.round(performance.now() - started));
  });
}

/** CodeProject.AI's default for the ALPR module. */
const DEFAULT_MIN_CONFIDENCE = 0.4;

function parseMinConfidence(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MIN_CONFIDENCE;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw errors.badRequest(`Invalid min_confidence "${value.slice(0, 40)}"; use a number from 0 to 1.`, 'invalid_parameter');
  return n;
}

/** The plate reader's answer in CodeProject.AI's shape (its ALPR module's fields and the ones
 * its server adds), read plates only, most confident first. */
export function codeProjectAnswer(answer: PlateAnswer, minConfidence: number, roundTripMs: number) {
  const predictions: CodeProjectPrediction[] = [];
  for (const r of answer.results) {
    // Plate results only (the call asks for no vehicle grouping); unread redaction boxes are no plates.
    if (!('dscore' in r) || r.plate === '' || r.score < minConfidence) continue;
    const plate = r.plate.toUpperCase();
    predictions.push({ confidence: r.score, label: `Plate: ${plate}`, plate, x_min: r.box.xmin, y_min: r.box.ymin, x_max: r.box.xmax, y_max: r.box.ymax });
  }
  predictions.sort((a, b) => b.confidence - a.confidence);
  const labels = predictions.slice(0, 3).map((p) => p.label).join(', ');
  const ms = Math.round(answer.processing_time);
  return {
    success: true,
    message: predictions.length === 0 ? 'No plates found' : `Found ${labels}${predictions.length > 3 ? '...' : ''}`,
    count: predictions.length,
    predictions,
    processMs: ms,
    inferenceMs: ms,
    analysisRoundTripMs: Math.max(ms, roundTripMs),
    moduleId: 'ALPR',
    moduleName: 'License Plate Reader',
    command: 'alpr',
    code: 200,
    requestId: randomUUID(),
    inferenceDevice: 'CPU',
    processedBy: os.hostname(),
    timestampUTC: new Date().toUTCString(),
  };
}
