import type { TypedApp } from '../../typed-app.js';
import { Type } from 'typebox';
import { WEBHOOK_FAMILIES, WEBHOOK_FORMATS, type WebhookFamily, type WebhookFormat } from '../../../services/notifications/ports.js';
import type { WebhookService } from '../../../services/webhooks/webhook.service.js';
import type { WebhookDeliveryRow, WebhookRow } from '../../../storage/repositories/webhook.repository.js';
import { accountOf } from '../../plugins/auth.plugin.js';

const isoTime = (millis: number) => new Date(millis).toISOString();
const DateTime = Type.String({ format: 'date-time' });
const ErrorMessage = Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) });

// A plain enum (not a union of literals) so a wrong value reads "must be equal to one of the allowed values".
const Family = Type.Unsafe<WebhookFamily>({ type: 'string', enum: [...WEBHOOK_FAMILIES], description: 'Which API family\'s events the target receives' });

const Format = Type.Unsafe<WebhookFormat>({
  type: 'string', enum: [...WEBHOOK_FORMATS],
  description: 'json (default), or multipart for plate-reader targets: a `json` string field and the image as `upload`',
});

const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  family: Family,
  format: Format,
  active: Type.Boolean({ description: 'False once the target was deactivated after failing repeatedly' }),
  consecutive_failures: Type.Integer(),
  created: DateTime,
  disabled_at: Type.Union([DateTime, Type.Null()]),
});

const CreatedWebhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  family: Family,
  format: Format,
  active: Type.Boolean(),
  secret: Type.String({ description: 'HMAC-SHA256 key of the x-vigil-signature header; shown only in this response' }),
  created: DateTime,
});

const Delivery = Type.Object({
  id: Type.Integer(),
  event: Type.String(),
  attempt: Type.Integer({ description: '1 for the first try of an event, then each retry' }),
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'Null when no HTTP answer came (refused address, timeout, connection error)' }),
  duration_ms: Type.Integer(),
  succeeded: Type.Boolean(),
  error: Type.Union([Type.String(), Type.Null()]),
  created: DateTime,
});

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const secured = { tags: ['webhooks'], security: [{ token: [] }] };
const errorsFor = { 400: ErrorMessage, 401: ErrorMessage, 404: ErrorMessage };

/** A stored family or format is one the service wrote; anything else is a corrupt row. */
function known<T extends string>(choices: readonly T[], value: string, what: string): T {
  const found = choices.find((c) => c === value);
  if (found === undefined) throw new Error(`webhook row holds an unknown ${what}: ${value}`);
  return found;
}

export function presentWebhook(w: WebhookRow) {
  return {
    id: w.id, url: w.url, family: known(WEBHOOK_FAMILIES, w.family, 'family'), format: known(WEBHOOK_FORMATS, w.payload_format, 'format'), active: w.active === 1, consecutive_failures: w.consecutive_failures,
    created: isoTime(w.created_at), disabled_at: w.disabled_at === null ? null : isoTime(w.disabled_at),
  };
}

function presentDelivery(d: WebhookDeliveryRow) {
  return {
    id: d.id, event: d.event, attempt: d.attempt, status_code: d.status_code, duration_ms: d.duration_ms,
    succeeded: d.succeeded === 1, error: d.error, created: isoTime(d.created_at),
  };
}

/** Webhook targets of the caller's account, for every API family. Registered under `/v1`. */
export async function webhookRoutes(app: TypedApp, opts: { webhooks: WebhookService }) {
  const { webhooks } = opts;

  app.post(
    '/webhooks/',
    {
      onRequest: app.requireAccount,
      schema: {
        ...secured,
        summary: 'Add a webhook target; the response carries its signing secret, shown only once',
        body: Type.Object({
          url: Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL on a public address' }),
          family: Type.Optional(Family),
          format: Type.Optional(Format),
        }),
        response: { 201: CreatedWebhook, ...errorsFor, 409: ErrorMessage },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { webhook, secret } = await webhooks.create(accountOf(request).id, body);
      const w = presentWebhook(webhook);
      return reply.code(201).send({ id: w.id, url: w.url, family: w.family, format: w.format, active: w.active, secret, created: w.created });
    },
  );

  app.get(
    '/webhooks/',
    { onRequest: app.requireAccount, schema: { ...secured, summary: 'List webhook targets, most recent first', response: { 200: Type.Array(Webhook), 401: ErrorMessage } } },
    async (request) => (await webhooks.list(accountOf(request).id)).map(presentWebhook),
  );

  app.delete(
    '/webhooks/:id/',
    { onRequest: app.requireAccount, schema: { ...secured, summary: 'Delete a webhook target and its delivery history', params: IdParams, response: { 204: Type.Null(), ...errorsFor } } },
    async (request, reply) => {
      await webhooks.remove(accountOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/enable/',
    { onRequest: app.requireAccount, schema: { ...secured, summary: 'Re-enable a deactivated target (its failure count starts again at 0)', params: IdParams, response: { 200: Webhook, ...errorsFor } } },
    async (request) => presentWebhook(await webhooks.enable(accountOf(request).id, request.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries/',
    {
      onRequest: app.requireAccount,
      schema: {
        ...secured,
        summary: 'Recent delivery attempts of a target, most recent first',
        params: IdParams,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })) }),
        response: { 200: Type.Array(Delivery), ...errorsFor },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { limit } = request.query;
      return (await webhooks.deliveries(accountOf(request).id, id, limit)).map(presentDelivery);
    },
  );
}
