import type { TypedApp } from '../../typed-app.js';
import { Type } from 'typebox';
import type { AccountRow } from '../../../storage/repositories/account.repository.js';
import type { UsageService } from '../../../services/usage.service.js';
import type { WebhookService } from '../../../services/webhooks/webhook.service.js';
import { VERSION } from '../../../version.js';

/** GET /info/ of the on-premise server. `webhooks` lists the installation's plate-reader
 * targets as `{id, target, event, active}` (the spec leaves the entry shape open). */
export async function onpremInfoRoutes(app: TypedApp, opts: { account: () => Promise<AccountRow>; usage: UsageService; webhooks: WebhookService; licenseKey: string; maxCalls: number }) {
  app.get('/info/', {
    schema: {
      summary: 'On-premise server information',
      tags: ['plate-recognition'],
      response: {
        200: Type.Object({
          version: Type.String(),
          license_key: Type.String(),
          total_calls: Type.Integer(),
          usage: Type.Object({ calls: Type.Integer() }),
          webhooks: Type.Array(Type.Object({ id: Type.Integer(), target: Type.String(), event: Type.String(), active: Type.Boolean() })),
        }),
      },
    },
  }, async () => {
    const account = await opts.account();
    const stats = await opts.usage.statistics(account.id, 'plate-reader');
    const hooks = (await opts.webhooks.list(account.id)).filter((w) => w.family === 'plate-reader');
    return {
      version: VERSION,
      license_key: opts.licenseKey,
      total_calls: opts.maxCalls,
      usage: { calls: stats.usage.calls },
      webhooks: hooks.map((w) => ({ id: w.id, target: w.url, event: 'image.done', active: w.active === 1 })),
    };
  });
}
