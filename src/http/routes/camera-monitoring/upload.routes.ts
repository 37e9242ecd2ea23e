import { Type } from 'typebox';
import type { TypedApp } from '../../typed-app.js';
import { UPLOAD_MESSAGES, type CameraUploadService } from '../../../services/camera-monitoring/upload.service.js';
import { errors } from '../../../services/errors.js';
import { enforceRate, type RateLimiter } from '../../../services/rate-limiter.js';
import { accountOf, tokenRateKey } from '../../plugins/auth.plugin.js';
import { readMultipart, singleField } from '../../multipart.js';
import { ErrorMessage, Message } from './schemas.js';

export interface UploadRouteOptions {
  uploads: CameraUploadService;
  maxUploadBytes: number;
  ratePerSecond: number;
  limiter: RateLimiter;
}

/** POST /create-log/: 201 {"message": "Log created successfully."}; 429 with the spec's message
 * when the camera uploaded within its interval, or when the token exceeds the request rate. */
export async function uploadRoutes(app: TypedApp, opts: UploadRouteOptions) {
  app.post(
    '/create-log/',
    {
      // Per token, before the body is read: one busy fleet does not throttle another account.
      onRequest: [
        app.requireAccount,
        async (request) => {
          await enforceRate(opts.limiter, tokenRateKey('upload', request), opts.ratePerSecond, 'Rate limit exceeded: too many uploads per second.');
        },
      ],
      config: {
        formBody: Type.Object({
          upload: Type.String({ format: 'binary', description: 'The image (JPEG, PNG, WebP, TIFF, GIF or HEIF)' }),
          camera_id: Type.String({ description: 'The camera\'s serial: 1 to 128 printable characters, no spaces' }),
          tag: Type.Optional(Type.String({ description: 'A label kept on the camera (Vigil extension)' })),
        }),
      },
      schema: {
        summary: 'Upload a camera image for asynchronous analysis',
        tags: ['camera-monitoring'],
        security: [{ token: [] }],
        consumes: ['multipart/form-data'],
        response: { 201: Message, 400: ErrorMessage, 401: ErrorMessage, 403: ErrorMessage, 413: ErrorMessage, 429: ErrorMessage },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const form = await readMultipart(request, opts.maxUploadBytes);
      const serial = singleField(form, 'camera_id');
      const upload = form.files.get('upload');
      const missing = [!upload && 'upload', !serial && 'camera_id'].filter(Boolean);
      if (missing.length) throw errors.badRequest(`Missing required parameter${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`, 'missing_parameter');
      await opts.uploads.createLog(account, { serial: serial!, tag: singleField(form, 'tag'), bytes: upload!.bytes });
      return reply.code(201).send({ message: UPLOAD_MESSAGES.created });
    },
  );
}
