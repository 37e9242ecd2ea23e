import type { TypedApp } from '../../typed-app.js';
import { Type } from 'typebox';
import type { LicenseService } from '../../../services/licenses.service.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { presentLicense } from './presenters.js';
import { ErrorMessage, License } from './schemas.js';

export async function licenseRoutes(app: TypedApp, opts: { licenses: LicenseService }) {
  app.get(
    '/licenses/',
    {
      onRequest: app.requireAccount,
      schema: {
        summary: 'List licenses, most recent first',
        tags: ['camera-monitoring'],
        security: [{ token: [] }],
        response: { 200: Type.Array(License), 401: ErrorMessage },
      },
    },
    async (request) => (await opts.licenses.list(accountOf(request).id)).map(presentLicense),
  );
}
