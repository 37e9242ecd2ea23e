import type { TypedApp } from '../../typed-app.js';
import type { DashboardService } from '../../../services/dashboard/dashboard.service.js';
import type { SessionService } from '../../../services/dashboard/session.service.js';
import { AppError, errors } from '../../../services/errors.js';
import type { AccountRow } from '../../../storage/repositories/account.repository.js';
import type { OcrService } from '../../../services/recognition/ocr.service.js';
import type { PlateService } from '../../../services/recognition/plate.service.js';
import { OCR_TYPES } from '../../../vision/ocr/ocr.types.js';
import { ImageDecodeError, probeImage } from '../../../vision/image/decode.js';
import { readMultipart, singleField, type UploadForm } from '../../multipart.js';
import { parsePlateConfig } from '../recognition/plate-params.js';
import { RECOGNITION_KINDS, recognitionPage, type RecognitionOutcome } from './pages.view.js';
import { assertCsrf, pageContext, requireSession, sessionOf } from './session.js';
import { isOneOf } from '../../../domain/choice.js';

const MIME: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', tiff: 'image/tiff', heif: 'image/heif' };

/** Try a reader on one image: the same services (and quota) as the API. */
export async function recognitionPages(app: TypedApp, opts: { dashboard: DashboardService; ocr: OcrService; plates: PlateService; sessions: SessionService; maxUploadBytes: number; maxPixels: number }) {
  const { dashboard, sessions } = opts;
  const preHandler = requireSession(sessions);

  app.get('/recognition', { preHandler }, async (request, reply) =>
    reply.type('text/html').send(recognitionPage(pageContext(request), await dashboard.usage(sessionOf(request).account.id)).value));

  app.post('/recognition', { preHandler }, async (request, reply) => {
    const form = await readMultipart(request, opts.maxUploadBytes);
    assertCsrf(sessions, request, singleField(form, '_csrf'));
    const account = sessionOf(request).account;
    try {
      const outcome = await read(account, form);
      return reply.type('text/html').send(recognitionPage(pageContext(request), await dashboard.usage(account.id), outcome).value);
    } catch (err) {
      // What the caller can fix (image, quota, feature) is shown on the page itself.
      const known = err instanceof AppError ? err : err instanceof ImageDecodeError ? new AppError(400, `image_${err.reason}`, err.message) : undefined;
      if (!known || known.status >= 500) throw err;
      return reply.code(known.status).type('text/html').send(recognitionPage(pageContext(request), await dashboard.usage(account.id), undefined, known.message).value);
    }
  });

  async function read(account: AccountRow, form: UploadForm): Promise<RecognitionOutcome> {
    const kind = singleField(form, 'kind') ?? '';
    if (!isOneOf(RECOGNITION_KINDS, kind)) throw errors.badRequest('Pick what to read.', 'invalid_kind');
    const file = form.files.get('upload');
    if (!file || file.bytes.length === 0) throw errors.badRequest('Choose an image to read.', 'missing_upload');
    const info = await probeImage(file.bytes, opts.maxPixels);
    const base = { image: file.bytes, filename: file.filename, cameraId: undefined, timestamp: undefined };
    let outcome: RecognitionOutcome;
    const image = { dataUrl: `data:${MIME[info.format] ?? 'image/jpeg'};base64,${file.bytes.toString('base64')}`, width: info.width, height: info.height };
    if (kind === 'plate') {
      // The plate options of the API: regions that guide the reading, mode, make/model/colour.
      const regions = (singleField(form, 'regions') ?? '').split(',').map((r) => r.trim().toLowerCase()).filter(Boolean);
      const mode = singleField(form, 'mode') ?? 'normal';
      const { options, vehicleMode } = parsePlateConfig(JSON.stringify({ mode }), regions, singleField(form, 'mmc') === 'on');
      const result = await opts.plates.read(account, { ...base, options, vehicleMode }, 'hosted');
      const plates = result.results as Array<{ box: { xmin: number; ymin: number; xmax: number; ymax: number }; plate: string; score: number; region: { code: string } }>;
      outcome = {
        kind, image, json: JSON.stringify(result, null, 2),
        boxes: plates.map((p) => ({ ...p.box, label: p.plate.toUpperCase() })),
        readings: plates.map((p) => ({ value: p.plate.toUpperCase(), detail: `score ${p.score.toFixed(2)} · region ${p.region.code}` })),
      };
    } else {
      if (!isOneOf(OCR_TYPES, kind)) throw errors.badRequest('Pick what to read.', 'invalid_kind');
      const { result, readings } = await opts.ocr.readWithBoxes(account, { ...base, type: kind, family: 'ocr', withConfidence: true });
      outcome = {
        kind, image, json: JSON.stringify(result, null, 2),
        boxes: readings.flatMap((r) => (r.box ? [{ ...r.box, label: r.value }] : [])),
        readings: result.results.map((r) => ({
          value: r.identifier.props.code[0]?.value ?? '',
          detail: [r.identifier.label, r.identifier.props.confidence !== undefined ? `confidence ${r.identifier.props.confidence.toFixed(2)}` : undefined].filter(Boolean).join(' · '),
        })),
      };
    }
    return outcome;
  }
}
