import type { TypedApp } from '../../typed-app.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANOMALY_KEYS } from '../../../domain/camera-health.js';
import type { CamerasService } from '../../../services/camera-monitoring/cameras.service.js';
import type { DashboardService } from '../../../services/dashboard/dashboard.service.js';
import type { SessionService } from '../../../services/dashboard/session.service.js';
import { errors } from '../../../services/errors.js';
import { readMultipart, singleField } from '../../multipart.js';
import { CAMERA_NOTICES, cameraPage } from './camera.view.js';
import { camerasPage, liveCameras } from './cameras.view.js';
import { filterOf } from './filters.js';
import { cameraPath } from './format.js';
import { assertCsrf, formField, pageContext, requireSession, sessionOf, textField } from './session.js';

interface CameraParams {
  licenseId: string;
  serial: string;
}

const cameraParamsOf = (request: FastifyRequest): CameraParams =>
  ({ licenseId: textField(request.params, 'licenseId') ?? '', serial: textField(request.params, 'serial') ?? '' });

/** Path ids are parsed here: anything that is not a plain id is simply "not found". */
function licenseIdOf(params: CameraParams): number {
  const id = /^\d{1,15}$/.test(params.licenseId) ? Number(params.licenseId) : NaN;
  if (!Number.isSafeInteger(id)) throw errors.notFound('Not found.');
  return id;
}

export async function cameraPages(app: TypedApp, opts: { dashboard: DashboardService; cameras: CamerasService; sessions: SessionService; maxUploadBytes: number }) {
  const { dashboard, cameras, sessions } = opts;
  const preHandler = requireSession(sessions);
  const accountId = (request: FastifyRequest) => sessionOf(request).account.id;

  app.get('/', { preHandler }, async (request, reply) => {
    const filter = filterOf(request);
    const [overview, tags] = await Promise.all([dashboard.overview(accountId(request), filter), dashboard.tags(accountId(request))]);
    return reply.type('text/html').send(camerasPage(pageContext(request), { overview, tags, filter }).value);
  });

  // Polled by the cameras page so status changes show without a reload.
  app.get('/live/cameras', { preHandler }, async (request) => liveCameras(await dashboard.overview(accountId(request), filterOf(request))));

  app.get('/cameras/:licenseId/:serial', { preHandler }, async (request, reply) => {
    const params = cameraParamsOf(request);
    const page = await dashboard.camera(accountId(request), licenseIdOf(params), params.serial);
    const saved = textField(request.query, 'saved');
    return reply.type('text/html').send(cameraPage(pageContext(request), page, saved ? CAMERA_NOTICES[saved] : undefined).value);
  });

  /** Resolves the camera (404 unless it is the account's) before anything else is read. */
  async function owned(request: FastifyRequest) {
    const params = cameraParamsOf(request);
    const licenseId = licenseIdOf(params);
    const camera = await dashboard.requireCamera(accountId(request), licenseId, params.serial);
    return { camera, licenseId, serial: params.serial, back: (saved: string, reply: FastifyReply) => reply.redirect(`${cameraPath(licenseId, params.serial)}?saved=${saved}`, 303) };
  }

  app.post('/cameras/:licenseId/:serial/reference', { preHandler }, async (request, reply) => {
    const cam = await owned(request);
    const form = await readMultipart(request, opts.maxUploadBytes);
    assertCsrf(sessions, request, singleField(form, '_csrf'));
    await cameras.setReference(accountId(request), cam.licenseId, cam.serial, form.files.get('upload')?.bytes);
    return cam.back('reference', reply);
  });

  app.post('/cameras/:licenseId/:serial/reference-from-log', { preHandler }, async (request, reply) => {
    const cam = await owned(request);
    assertCsrf(sessions, request, formField(request.body, '_csrf'));
    const logId = Number(formField(request.body, 'log_id'));
    if (!Number.isSafeInteger(logId)) throw errors.notFound('That log has no snapshot of this camera.');
    await cameras.setReferenceFromLog(accountId(request), cam.licenseId, cam.serial, logId);
    return cam.back('reference', reply);
  });

  app.post('/cameras/:licenseId/:serial/thresholds', { preHandler }, async (request, reply) => {
    const cam = await owned(request);
    assertCsrf(sessions, request, formField(request.body, '_csrf'));
    const thresholds: Record<string, number> = {};
    for (const key of ANOMALY_KEYS) {
      const raw = formField(request.body, `t_${key}`);
      if (raw !== undefined && raw !== '') thresholds[key] = Number(raw);
    }
    const band = formField(request.body, 'review_band');
    await cameras.applyThresholds(cam.camera, { thresholds, ...(band !== undefined && band !== '' ? { reviewBand: Number(band) } : {}) });
    return cam.back('thresholds', reply);
  });

  app.post('/cameras/:licenseId/:serial/details', { preHandler }, async (request, reply) => {
    const cam = await owned(request);
    assertCsrf(sessions, request, formField(request.body, '_csrf'));
    await cameras.setDetails(accountId(request), cam.licenseId, cam.serial, { name: formField(request.body, 'name') ?? '', notes: formField(request.body, 'notes') ?? '' });
    return cam.back('details', reply);
  });

  app.post('/cameras/:licenseId/:serial/delete', { preHandler }, async (request, reply) => {
    const cam = await owned(request);
    assertCsrf(sessions, request, formField(request.body, '_csrf'));
    await cameras.delete(accountId(request), cam.licenseId, cam.serial);
    return reply.redirect('/', 303);
  });
}
