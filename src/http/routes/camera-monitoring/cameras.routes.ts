import { Type } from 'typebox';
import { STATUS_FILTERS } from '../../../domain/camera-status.js';
import type { CamerasService } from '../../../services/camera-monitoring/cameras.service.js';
import type { ImageService } from '../../../services/images.service.js';
import { readMultipart } from '../../multipart.js';
import type { TypedApp } from '../../typed-app.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { presentCamera, presentLog } from './presenters.js';
import { dayRange, DEFAULT_PAGE_SIZE } from './query.js';
import { Camera, CameraLog, CameraParams, Day, ErrorMessage, LicenseParams, Message, Paging } from './schemas.js';

const StatusFilter = Type.Union(STATUS_FILTERS.map((s) => Type.Literal(s)));
const secured = { tags: ['camera-monitoring'], security: [{ token: [] }] };

type CameraRouteOptions = { cameras: CamerasService; images: ImageService; maxUploadBytes: number };

/** A license's cameras: listing and logs, deletion, reference image, thresholds. */
export async function cameraRoutes(app: TypedApp, opts: CameraRouteOptions) {
  listingRoutes(app, opts);
  referenceRoutes(app, opts);
  thresholdRoutes(app, opts);
}

/** The cameras of a license, a camera's logs, and deleting a camera. */
function listingRoutes(app: TypedApp, opts: CameraRouteOptions) {
  app.get(
    '/:license_id/cameras/',
    {
      onRequest: app.requireAccount,
      schema: {
        ...secured,
        summary: 'List the cameras of a license, in registration order',
        params: LicenseParams,
        querystring: Type.Object({ status: Type.Optional(StatusFilter), ...Paging }),
        response: { 200: Type.Array(Camera), 400: ErrorMessage, 401: ErrorMessage, 403: ErrorMessage, 404: ErrorMessage },
      },
    },
    async (request) => {
      const { license_id } = request.params;
      const q = request.query;
      const cameras = await opts.cameras.list(accountOf(request).id, license_id, q);
      return cameras.map(presentCamera);
    },
  );

  app.get(
    '/:license_id/cameras/:serial/logs/',
    {
      onRequest: app.requireAccount,
      schema: {
        ...secured,
        summary: 'List the logs of a camera, most recent first',
        params: CameraParams,
        querystring: Type.Object({
          start: Type.Optional(Day),
          end: Type.Optional(Day),
          status: Type.Optional(StatusFilter),
          ...Paging,
        }),
        response: { 200: Type.Array(CameraLog), 400: ErrorMessage, 401: ErrorMessage, 403: ErrorMessage, 404: ErrorMessage },
      },
    },
    async (request) => {
      const { license_id, serial } = request.params;
      const q = request.query;
      const range = dayRange(q.start, q.end);
      const { camera, logs } = await opts.cameras.logs(accountOf(request).id, license_id, serial, {
        ...range, status: q.status, limit: q.limit ?? DEFAULT_PAGE_SIZE, offset: q.offset ?? 0,
      });
      const snapshots = await opts.images.urlsOfIds(logs.map((log) => log.image_id));
      return logs.map((log, i) => presentLog(log, camera, snapshots[i] ?? null));
    },
  );

  app.delete(
    '/:license_id/cameras/:serial/',
    {
      onRequest: app.requireAccount,
      schema: { ...secured, summary: 'Delete a camera with its logs and images', params: CameraParams, response: { 204: Type.Null(), 401: ErrorMessage, 403: ErrorMessage, 404: ErrorMessage } },
    },
    async (request, reply) => {
      const { license_id, serial } = request.params;
      await opts.cameras.delete(accountOf(request).id, license_id, serial);
      return reply.code(204).send(null);
    },
  );
}

/** A camera's reference image: its URL, and replacing it. */
function referenceRoutes(app: TypedApp, opts: CameraRouteOptions) {
  app.get(
    '/:license_id/cameras/:serial/reference/',
    {
      onRequest: app.requireAccount,
      schema: {
        ...secured,
        summary: 'Get the current reference image URL',
        params: CameraParams,
        response: { 200: Type.Object({ reference_image: Type.Union([Type.String(), Type.Null()]) }), 401: ErrorMessage, 403: ErrorMessage, 404: ErrorMessage },
      },
    },
    async (request) => {
      const { license_id, serial } = request.params;
      return { reference_image: await opts.cameras.referenceUrl(accountOf(request).id, license_id, serial) };
    },
  );

  app.post(
    '/:license_id/cameras/:serial/reference/',
    {
      onRequest: app.requireAccount,
      config: { formBody: Type.Object({ upload: Type.String({ format: 'binary', description: 'The new reference image' }) }) },
      schema: {
        ...secured,
        summary: 'Replace the reference image (earlier ones are kept for historical alerts)',
        params: CameraParams,
        consumes: ['multipart/form-data'],
        response: { 201: Message, 400: ErrorMessage, 401: ErrorMessage, 403: ErrorMessage, 404: ErrorMessage, 413: ErrorMessage },
      },
    },
    async (request, reply) => {
      const { license_id, serial } = request.params;
      const account = accountOf(request);
      // Ownership first: a stranger learns nothing from how we treat their body.
      await opts.cameras.require(account.id, license_id, serial);
      const form = await readMultipart(request, opts.maxUploadBytes);
      await opts.cameras.setReference(account.id, license_id, serial, form.files.get('upload')?.bytes);
      return reply.code(201).send({ message: 'Reference image updated.' });
    },
  );
}

const ThresholdsBody = Type.Object({
  thresholds: Type.Optional(Type.Record(Type.String(), Type.Number())),
  review_band: Type.Optional(Type.Union([Type.Number({ minimum: 0, exclusiveMaximum: 1 }), Type.Null()])),
});
const ThresholdsReply = Type.Object({ thresholds: Type.Record(Type.String(), Type.Number()), review_band: Type.Number() });

/** A camera's anomaly thresholds (Vigil extension). */
function thresholdRoutes(app: TypedApp, opts: CameraRouteOptions) {
  app.get(
    '/:license_id/cameras/:serial/thresholds/',
    {
      onRequest: app.requireAccount,
      schema: { ...secured, summary: 'Anomaly thresholds of a camera (Vigil extension)', params: CameraParams, response: { 200: ThresholdsReply, 401: ErrorMessage, 403: ErrorMessage, 404: ErrorMessage } },
    },
    async (request) => {
      const { license_id, serial } = request.params;
      const t = await opts.cameras.thresholds(accountOf(request).id, license_id, serial);
      return { thresholds: t.thresholds, review_band: t.reviewBand };
    },
  );

  app.put(
    '/:license_id/cameras/:serial/thresholds/',
    {
      onRequest: app.requireAccount,
      schema: { ...secured, summary: 'Set anomaly thresholds of a camera (Vigil extension)', params: CameraParams, body: ThresholdsBody, response: { 200: ThresholdsReply, 400: ErrorMessage, 401: ErrorMessage, 403: ErrorMessage, 404: ErrorMessage } },
    },
    async (request) => {
      const { license_id, serial } = request.params;
      const body = request.body;
      const t = await opts.cameras.setThresholds(accountOf(request).id, license_id, serial, { thresholds: body.thresholds, reviewBand: body.review_band });
      return { thresholds: t.thresholds, review_band: t.reviewBand };
    },
  );
}
