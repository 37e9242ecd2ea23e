import { readFileSync } from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { RetryLater, type JobHandlerDefinition, type JobPayload, type JobQueue } from '../../queue/jobs.js';
import type { Metrics } from '../metrics.js';
import type { EventPublisher, VigilEvent } from '../notifications/ports.js';
import { messagesOf, type TopicSettings } from './mqtt-messages.js';

export interface MqttSettings extends TopicSettings {
  /** `mqtt://`, `mqtts://`, `ws://` or `wss://`, credentials in the URL (MQTT_URL). */
  url: string;
  /** A CA certificate file for a broker whose certificate no public CA signed (MQTT_CA_FILE). */
  caFile: string | undefined;
}

/** Attempts per event that the broker refused; while it is unreachable attempts are not spent. */
const MAX_ATTEMPTS = 10;
/** A publish the broker has not acknowledged by then is tried again (QoS 1: at least once). */
const PUBLISH_TIMEOUT_MS = 10_000;
/** How long a job waits for a first connection before it is put back. */
const CONNECT_WAIT_MS = 3_000;

/** The enqueue side: each event becomes one `mqtt.publish` job, so an event the API accepted
 * survives a broker outage and a restart of every process (the jobs table is the outbox). */
export class MqttEvents implements EventPublisher {
  readonly enabled = true;

  constructor(private readonly queue: JobQueue, private readonly topics: TopicSettings) {}

  async publish(accountId: number, event: VigilEvent): Promise<void> {
    await this.queue.enqueue('mqtt.publish', messagesOf(accountId, event, this.topics), { maxAttempts: MAX_ATTEMPTS });
  }
}

/** The worker side: one connection per process, opened at the first job, kept open and
 * reconnected by the client; the `mqtt.publish` handler publishes at QoS 1 and waits for the
 * broker's acknowledgement. */
export class MqttPublisher {
  private client: MqttClient | undefined;
  /** Discovery topics sent by this process; cleared when Home Assistant comes online again. */
  private readonly announced = new Set<string>();
  private downSince: number | undefined;

  constructor(private readonly settings: MqttSettings | undefined, private readonly options: { metrics?: Metrics; log?: (message: string) => void } = {}) {}

  handler(): JobHandlerDefinition<'mqtt.publish'> {
    return { maxAttempts: MAX_ATTEMPTS, run: (p) => this.publish(p) };
  }

  async publish(p: JobPayload<'mqtt.publish'>): Promise<void> {
    // Enqueued while MQTT was configured, run by a process where it is not: nothing to do.
    if (!this.settings) return;
    const client = this.connect(this.settings);
    if (!(await connected(client, CONNECT_WAIT_MS))) throw this.retryLater();
    try {
      for (const m of p.announce) {
        if (this.announced.has(m.topic)) continue;
        await this.send(client, m.topic, m.payload, m.retain);
        this.announced.add(m.topic);
      }
      for (const m of p.messages) await this.send(client, m.topic, m.payload, m.retain);
    } catch (err) {
      this.options.metrics?.delivery('mqtt', 'failed');
      // Lost the broker mid-job: wait for it without spending an attempt.
      if (!client.connected) throw this.retryLater();
      throw err;
    }
    this.options.metrics?.delivery('mqtt', 'delivered');
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.endAsync(true);
  }

  private async send(client: MqttClient, topic: string, payload: string, retain: boolean): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`MQTT broker did not acknowledge ${topic} within ${PUBLISH_TIMEOUT_MS} ms`)), PUBLISH_TIMEOUT_MS);
    });
    try {
      await Promise.race([client.publishAsync(topic, payload, { qos: 1, retain }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Put back for a while that grows with the outage (2 s to a minute), so a long outage with many
   * events waiting does not turn into a storm of polls. */
  private retryLater(): RetryLater {
    const downFor = Date.now() - (this.downSince ?? Date.now());
    return new RetryLater(Math.min(60_000, Math.max(2_000, downFor / 2)), 'MQTT broker not connected');
  }

  private connect(s: MqttSettings): MqttClient {
    if (this.client) return this.client;
    this.downSince = Date.now();
    const client = mqtt.connect(withoutCredentials(s.url), {
      ...credentialsOf(s.url),
      clientId: `vigil-${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
      reconnectPeriod: 1_000,
      connectTimeout: 10_000,
      // Vigil's outbox holds what is not yet sent, not the client's memory.
      queueQoSZero: false,
      ...(s.caFile ? { ca: readFileSync(s.caFile) } : {}),
    });
    const birth = s.discoveryPrefix ? `${s.discoveryPrefix}/status` : undefined;
    let reported = false;
    client.on('connect', () => {
      this.downSince = undefined;
      reported = false;
      if (birth) client.subscribe(birth, { qos: 1 });
      this.options.log?.(`MQTT connected to ${redacted(s.url)}`);
    });
    client.on('close', () => {
      this.downSince ??= Date.now();
    });
    client.on('error', (err) => {
      if (!reported) this.options.log?.(`MQTT ${redacted(s.url)}: ${err.message}`);
      reported = true;
    });
    // Home Assistant restarted: announce the devices again with the next events (the configs are
    // retained too, but a broker without persistence forgets them).
    client.on('message', (topic, payload) => {
      if (topic === birth && payload.toString() === 'online') this.announced.clear();
    });
    this.client = client;
    return client;
  }
}

function connected(client: MqttClient, waitMs: number): Promise<boolean> {
  if (client.connected) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onConnect = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      client.off('connect', onConnect);
      resolve(false);
    }, waitMs);
    client.once('connect', onConnect);
  });
}

/** The URL's user and password, percent-decoded (the client would send `%40` for `@`). */
function credentialsOf(url: string): { username?: string; password?: string } {
  const u = new URL(url);
  return {
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
  };
}

function withoutCredentials(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString();
}

/** The URL without its password, for logs. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'MQTT_URL';
  }
}
