import type { TypedApp } from '../../typed-app.js';
import { Type } from 'typebox';
import type { AlertService } from '../../../services/camera-monitoring/alerts.service.js';
import type { LicenseService } from '../../../services/licenses.service.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { presentAlert } from './presenters.js';
import { dayRange, DEFAULT_PAGE_SIZE, parseBoolean } from './query.js';
import { Alert, Day, ErrorMessage, LicenseParams, Paging } from './schemas.js';

export async function alertRoutes(app: TypedApp, opts: { alerts: AlertService; licenses: LicenseService }) {
  app.get(
    '/:license_id/alerts/',
    {
      onRequest: app.requireAccount,
      schema: {
        summary: 'List anomaly alerts, most recent first',
        tags: ['camera-monitoring'],
        security: [{ token: [] }],
        params: LicenseParams,
        querystring: Type.Object({
          start: Type.Optional(Day),
          end: Type.Optional(Day),
          license: Type.Optional(Type.String({ maxLength: 64 })),
          sent: Type.Optional(Type.String({ description: 'true or false' })),
          ...Paging,
        }),
        response: { 200: Type.Array(Alert), 400: ErrorMessage, 401: ErrorMessage, 403: ErrorMessage, 404: ErrorMessage },
      },
    },
    async (request) => {
      const { license_id } = request.params;
      const q = request.query;
      const range = dayRange(q.start, q.end);
      const sent = parseBoolean(q.sent, 'sent');
      await opts.licenses.requireOwned(accountOf(request).id, license_id);
      const alerts = await opts.alerts.list(license_id, { ...range, licenseCode: q.license, sent, limit: q.limit ?? DEFAULT_PAGE_SIZE, offset: q.offset ?? 0 });
      return alerts.map(presentAlert);
    },
  );
}
