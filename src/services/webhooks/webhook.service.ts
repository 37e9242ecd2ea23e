import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { JobHandlerDefinition, JobPayload, JobQueue } from '../../queue/jobs.js';
import type { AccountRepository } from '../../storage/repositories/account.repository.js';
import type { WebhookDeliveryRow, WebhookRepository, WebhookRow } from '../../storage/repositories/webhook.repository.js';
import { errors } from '../errors.js';
import type { Metrics } from '../metrics.js';
import type { DeliveryRef, Mailer, OnDelivered, WebhookFamily, WebhookNotifier } from '../notifications/ports.js';
import { WEBHOOK_FAMILIES, WEBHOOK_FORMATS, type WebhookFormat } from '../notifications/ports.js';
import { OutboundError } from '../outbound/outbound-error.js';
import type { SafeFetch } from '../outbound/safe-fetch.js';
import { isOneOf } from '../../domain/choice.js';

/** What a `webhook.deliver` job carries (queue/jobs.ts). */
export type WebhookDeliverPayload = JobPayload<'webhook.deliver'>;

export interface WebhookServiceOptions {
  webhooks: WebhookRepository;
  accounts: Pick<AccountRepository, 'findById' | 'findByEmail'>;
  queue: JobQueue;
  fetch: SafeFetch;
  images: { bytesOf(imageId: number): Promise<Buffer | undefined> };
  mailer: Mailer;
  onDelivered: OnDelivered;
  timeoutMs: number;
  maxAttempts: number;
  disableAfterFailures: number;
  userAgent: string;
  metrics?: Metrics;
}

export interface CreatedWebhook {
  webhook: WebhookRow;
  /** The signing key, shown to the user this once. */
  secret: string;
}

/** Per account; enough for every integration, small enough that one event cannot fan out into
 * thousands of jobs. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
const MAX_URL_LENGTH = 2048;
/** Attempt rows kept per target. */
const DELIVERY_HISTORY = 200;
/** Only the status matters; a receiver's chatty answer is cut here. */
const RESPONSE_CAP_BYTES = 16 * 1024;

export class WebhookDeliveryError extends Error {
  override name = 'WebhookDeliveryError';
}

/** Webhook targets of an account and their delivery: one job per target and event, one
 * `webhook_deliveries` row per attempt, HMAC-signed, retried with backoff by the job runner;
 * a target that keeps failing is switched off and its owner e-mailed. */
export class WebhookService implements WebhookNotifier {
  constructor(private readonly o: WebhookServiceOptions) {}

  async create(accountId: number, input: { url: string; family?: string; format?: string }): Promise<CreatedWebhook> {
    const family = parseFamily(input.family ?? 'camera-monitoring');
    const format = parseFormat(input.format ?? 'json');
    // Only plate readings carry the image their receivers expect in a form (compatibility.md).
    if (format === 'multipart' && family !== 'plate-reader') {
      throw errors.badRequest('Only plate-reader webhooks can be sent as multipart; use json for this family.', 'invalid_webhook_format');
    }
    const url = input.url.trim();
    if (url.length > MAX_URL_LENGTH) throw errors.badRequest(`The URL is longer than ${MAX_URL_LENGTH} characters.`, 'invalid_webhook_url');
    let normalized: string;
    try {
      normalized = this.o.fetch.checkUrl(url).toString();
    } catch (err) {
      if (err instanceof OutboundError) throw errors.badRequest(err.message, 'invalid_webhook_url');
      throw err;
    }
    if (await this.o.webhooks.findByUrl(accountId, family, normalized)) {
      throw errors.conflict(`A ${family} webhook for ${normalized} already exists.`, 'webhook_exists');
    }
    if ((await this.o.webhooks.countForAccount(accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw errors.badRequest(`An account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one first.`, 'too_many_webhooks');
    }
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const webhook = await this.o.webhooks.create({ accountId, family, url: normalized, secret, format });
    return { webhook, secret };
  }

  /** For the CLI: the account named by e-mail. */
  async createForEmail(email: string, input: { url: string; family?: string; format?: string }): Promise<CreatedWebhook> {
    const account = await this.o.accounts.findByEmail(email);
    if (!account) throw errors.notFound(`No account with the e-mail ${email}.`, 'account_not_found');
    return this.create(account.id, input);
  }

  list(accountId: number): Promise<WebhookRow[]> {
    return this.o.webhooks.listForAccount(accountId);
  }

  async get(accountId: number, id: number): Promise<WebhookRow> {
    return (await this.o.webhooks.findForAccount(accountId, id)) ?? notFound(id);
  }

  async remove(accountId: number, id: number): Promise<void> {
    if (!(await this.o.webhooks.deleteForAccount(accountId, id))) notFound(id);
  }

  /** Switches a target back on with a clean failure count. */
  async enable(accountId: number, id: number): Promise<WebhookRow> {
    return (await this.o.webhooks.enableForAccount(accountId, id)) ?? notFound(id);
  }

  async deliveries(accountId: number, id: number, limit = 50): Promise<WebhookDeliveryRow[]> {
    await this.get(accountId, id);
    return this.o.webhooks.deliveriesForAccount(accountId, id, Math.max(1, Math.min(limit, DELIVERY_HISTORY)));
  }

  /** Whether any target would receive an event: callers skip building costly payloads. */
  async hasActive(accountId: number, family: WebhookFamily): Promise<boolean> {
    return (await this.o.webhooks.listActive(accountId, family)).length > 0;
  }

  async notify(accountId: number, family: WebhookFamily, event: string, body: unknown, options: { ref?: DeliveryRef; imageId?: number } = {}): Promise<number> {
    const targets = await this.o.webhooks.listActive(accountId, family);
    for (const t of targets) {
      const payload: WebhookDeliverPayload = { webhookId: t.id, deliveryId: randomUUID(), event, body };
      if (options.ref) payload.ref = options.ref;
      if (options.imageId !== undefined && t.payload_format === 'multipart') payload.multipartImageId = options.imageId;
      await this.o.queue.enqueue('webhook.deliver', payload, { maxAttempts: this.o.maxAttempts });
    }
    return targets.length;
  }

  /** The `webhook.deliver` job handler. */
  handler(): JobHandlerDefinition<'webhook.deliver'> {
    return { maxAttempts: this.o.maxAttempts, run: (payload, context) => this.deliver(payload, context.attempt) };
  }

  async deliver(p: WebhookDeliverPayload, attempt: number): Promise<void> {
    const hook = await this.o.webhooks.findById(p.webhookId);
    // Deleted or switched off since the event: the job has nothing left to do.
    if (!hook || !hook.active) return;

    const request = await this.buildRequest(hook, p);
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const res = await this.o.fetch.fetch(hook.url, {
        method: 'POST', headers: request.headers, body: request.body, timeoutMs: this.o.timeoutMs,
        // A webhook is not followed to another URL: a redirected POST loses its body.
        maxRedirects: 0, maxBytes: RESPONSE_CAP_BYTES, oversize: 'truncate',
      });
      statusCode = res.status;
      if (res.status < 200 || res.status > 299) error = describeAnswer(res.status, res.headers.location, res.body);
    } catch (err) {
      error = err instanceof OutboundError ? err.message : `Delivery failed: ${(err as Error).message}`;
    }
    const durationMs = performance.now() - started;
    await this.o.webhooks.recordAttempt({ webhookId: hook.id, event: p.event, attempt, statusCode, durationMs, error, succeeded: error === null });
    this.o.metrics?.delivery('webhook', error === null ? 'delivered' : 'failed');

    if (error === null) {
      await this.o.webhooks.resetFailures(hook.id);
      await this.o.webhooks.pruneDeliveries(hook.id, DELIVERY_HISTORY);
      if (p.ref) await this.o.onDelivered(p.ref);
      return;
    }
    const failures = await this.o.webhooks.incrementFailures(hook.id);
    if (failures >= this.o.disableAfterFailures) {
      if (await this.o.webhooks.deactivate(hook.id)) await this.tellOwner(hook, failures, error);
      // Switched off: further attempts would only be dropped.
      return;
    }
    throw new WebhookDeliveryError(error);
  }

  private async buildRequest(hook: WebhookRow, p: WebhookDeliverPayload): Promise<{ headers: Record<string, string>; body: Buffer }> {
    const json = JSON.stringify(envelope(hook, p.event, p.body));
    let body: Buffer;
    let contentType: string;
    if (p.multipartImageId !== undefined) {
      // An image deleted since the event leaves the JSON part alone in the form.
      const image = await this.o.images.bytesOf(p.multipartImageId);
      ({ body, contentType } = multipartForm(json, image, p.deliveryId));
    } else {
      body = Buffer.from(json, 'utf8');
      contentType = 'application/json';
    }
    const timestamp = String(Math.floor(Date.now() / 1000));
    return {
      body,
      headers: {
        'content-type': contentType,
        'user-agent': this.o.userAgent,
        'x-vigil-event': p.event,
        'x-vigil-delivery': p.deliveryId,
        'x-vigil-timestamp': timestamp,
        'x-vigil-signature': `sha256=${signWebhook(hook.secret, timestamp, body)}`,
      },
    };
  }

  private async tellOwner(hook: WebhookRow, failures: number, lastError: string): Promise<void> {
    const owner = await this.o.accounts.findById(hook.account_id);
    if (!owner) return;
    await this.o.mailer.enqueue({
      to: owner.email,
      subject: `Vigil webhook deactivated: ${hook.url}`,
      text: [
        `Your ${hook.family} webhook ${hook.url} (id ${hook.id}) failed ${failures} times in a row and has been deactivated.`,
        `Last error: ${lastError}`,
        '',
        'No more events are sent to it. Once the receiver works again, enable it with',
        `POST /v1/webhooks/${hook.id}/enable/ (or create it again).`,
      ].join('\n'),
    });
  }
}

/** Hex HMAC-SHA256 of `<timestamp>.<body bytes>` keyed with the webhook secret; sent as
 * `x-vigil-signature: sha256=<hex>`. Exported for receivers' tests and documentation. */
export function signWebhook(secret: string, timestamp: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** OCR and plate-reader clients expect the documented `hook` envelope; camera monitoring
 * clients receive the alert itself (compatibility.md). */
export function envelope(hook: Pick<WebhookRow, 'id' | 'url' | 'family'>, event: string, body: unknown): unknown {
  if (hook.family === 'camera-monitoring') return body;
  return { hook: { target: hook.url, id: hook.id, event }, data: body };
}

/** `name`: the image's file name without extension, unique per delivery (receivers that save
 * each image under its file name would otherwise overwrite the last one). */
function multipartForm(json: string, image: Buffer | undefined, name: string): { body: Buffer; contentType: string } {
  const boundary = `----VigilFormBoundary${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="json"\r\n\r\n${json}\r\n`, 'utf8')];
  if (image) {
    const { ext, type } = imageType(image);
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="${name}.${ext}"\r\nContent-Type: ${type}\r\n\r\n`, 'utf8'), image, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function imageType(b: Buffer): { ext: string; type: string } {
  if (b[0] === 0xff && b[1] === 0xd8) return { ext: 'jpg', type: 'image/jpeg' };
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { ext: 'png', type: 'image/png' };
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return { ext: 'webp', type: 'image/webp' };
  return { ext: 'bin', type: 'application/octet-stream' };
}

function describeAnswer(status: number, location: string | undefined, body: Buffer): string {
  if (status >= 300 && status < 400) return `The target answered ${status} (redirect to ${location ?? 'nowhere'}); webhooks are not redirected, register the final URL.`;
  const snippet = body.toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 200);
  return `The target answered ${status}${snippet ? `: ${snippet}` : ''}.`;
}

function parseFormat(value: string): WebhookFormat {
  if (isOneOf(WEBHOOK_FORMATS, value)) return value;
  throw errors.badRequest(`Unknown webhook format "${value}"; use one of ${WEBHOOK_FORMATS.join(', ')}.`, 'invalid_webhook_format');
}

function parseFamily(family: string): WebhookFamily {
  if (isOneOf(WEBHOOK_FAMILIES, family)) return family;
  throw errors.badRequest(`Unknown webhook family "${family}"; use one of ${WEBHOOK_FAMILIES.join(', ')}.`, 'invalid_webhook_family');
}

function notFound(id: number): never {
  throw errors.notFound(`No webhook ${id}.`, 'webhook_not_found');
}
