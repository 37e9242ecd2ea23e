import type { Config } from '../config/config.js';
import type { JobHandlerDefinition, JobQueue } from '../queue/jobs.js';
import type { Db } from '../storage/db/database.js';
import type { AccountRepository } from '../storage/repositories/account.repository.js';
import { WebhookRepository } from '../storage/repositories/webhook.repository.js';
import { VERSION } from '../version.js';
import type { ImageService } from '../services/images.service.js';
import { MailService } from '../services/mail/mail.service.js';
import type { Metrics } from '../services/metrics.js';
import { SafeFetch } from '../services/outbound/safe-fetch.js';
import { WebhookService } from '../services/webhooks/webhook.service.js';
import { NO_EVENTS, type EventPublisher, type OnDelivered } from '../services/notifications/ports.js';
import { MqttEvents, MqttPublisher } from '../services/mqtt/mqtt.service.js';

export interface NotificationsDeps {
  config: Pick<Config, 'webhooks' | 'mail' | 'outboundAllow' | 'mqtt'>;
  db: Db;
  queue: JobQueue;
  images: Pick<ImageService, 'bytesOf'>;
  accounts: Pick<AccountRepository, 'findById' | 'findByEmail'>;
  onDelivered: OnDelivered;
  metrics?: Metrics;
}

export interface Notifications {
  webhooks: WebhookService;
  mail: MailService;
  /** Events to the MQTT broker (MQTT_URL), or nowhere. */
  events: EventPublisher;
  /** The SSRF-safe client for every user-given URL (webhooks, `upload_url`). */
  fetch: SafeFetch;
  handlers: {
    'webhook.deliver': JobHandlerDefinition<'webhook.deliver'>;
    'mail.send': JobHandlerDefinition<'mail.send'>;
    'mqtt.publish': JobHandlerDefinition<'mqtt.publish'>;
  };
  /** Closes the SMTP and MQTT connections. */
  close(): Promise<void>;
}

/** Builds webhooks, mail and the outbound client from the config. Throws on a malformed
 * OUTBOUND_ALLOW entry, so a typo stops the process at start rather than opening a hole. */
export function createNotifications(deps: NotificationsDeps): Notifications {
  const userAgent = `Vigil/${VERSION}`;
  const fetch = new SafeFetch({ allow: deps.config.outboundAllow, userAgent });
  const mail = new MailService({ smtpUrl: deps.config.mail.smtpUrl, from: deps.config.mail.from, queue: deps.queue, onDelivered: deps.onDelivered, metrics: deps.metrics });
  const webhooks = new WebhookService({
    webhooks: new WebhookRepository(deps.db),
    accounts: deps.accounts,
    queue: deps.queue,
    fetch,
    images: deps.images,
    mailer: mail,
    onDelivered: deps.onDelivered,
    userAgent,
    metrics: deps.metrics,
    ...deps.config.webhooks,
  });
  const mqtt = new MqttPublisher(deps.config.mqtt, { metrics: deps.metrics, log: (message) => console.error(`[vigil] ${message}`) });
  return {
    webhooks,
    mail,
    events: deps.config.mqtt ? new MqttEvents(deps.queue, deps.config.mqtt) : NO_EVENTS,
    fetch,
    handlers: { 'webhook.deliver': webhooks.handler(), 'mail.send': mail.handler(), 'mqtt.publish': mqtt.handler() },
    async close() {
      mail.close();
      await mqtt.close();
    },
  };
}
