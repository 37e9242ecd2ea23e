import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RateLimiter } from './rate-limiter.js';

/** What services report for operators to page on (GET /metrics). A port: services call it and
 * never touch prom-client; tests and tools that do not watch pass NO_METRICS. */
export interface Metrics {
  /** A camera log recorded with this status (normal, anomaly, under_review, config_issue,
   * pending_retry). */
  analysis(status: string): void;
  /** One recognition call of a family: read (with the engine's seconds), failed, or refused
   * because the engine's queue was full. */
  recognition(family: string, outcome: 'read' | 'failed' | 'busy', seconds?: number): void;
  /** One delivery attempt of a webhook, an e-mail or an MQTT event. */
  delivery(channel: 'webhook' | 'mail' | 'mqtt', outcome: 'delivered' | 'failed'): void;
  /** A request refused by a rate limit of this kind (upload, ocr, plates, ...). */
  rateLimited(kind: string): void;
  /** A request refused because the server was full (uploads: too many bytes in flight). */
  overloaded(kind: string): void;
}

export const NO_METRICS: Metrics = { analysis() {}, recognition() {}, delivery() {}, rateLimited() {}, overloaded() {} };

/** Queue depth and the age of the oldest waiting job, per kind: read from the jobs table when
 * Prometheus scrapes, so every process reports the whole installation's queue. */
export type JobQueueStats = () => Promise<Array<{ kind: string; waiting: number; running: number; oldestDueAt: number | null }>>;

/** Metrics on a prom-client registry (the HTTP plugin adds request durations and the process
 * defaults to the same registry). */
export class PromMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly analyses = new Counter({ name: 'vigil_camera_analyses_total', help: 'Camera logs recorded, by status', labelNames: ['status'] as const, registers: [this.registry] });
  private readonly reads = new Counter({ name: 'vigil_recognition_calls_total', help: 'Recognition calls by family and outcome (read, failed, busy)', labelNames: ['family', 'outcome'] as const, registers: [this.registry] });
  private readonly engine = new Histogram({
    name: 'vigil_recognition_engine_seconds', help: 'Engine time of a recognition call, by family', labelNames: ['family'] as const,
    buckets: [0.025, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4], registers: [this.registry],
  });
  private readonly deliveries = new Counter({ name: 'vigil_deliveries_total', help: 'Webhook, e-mail and MQTT delivery attempts by outcome', labelNames: ['channel', 'outcome'] as const, registers: [this.registry] });
  private readonly limited = new Counter({ name: 'vigil_rate_limited_total', help: 'Requests refused by a rate limit, by kind', labelNames: ['kind'] as const, registers: [this.registry] });
  private uploadBytes: () => number = () => 0;
  private readonly uploadGauge: Gauge = new Gauge({
    name: 'vigil_upload_bytes_in_flight', help: 'Bytes of upload bodies this process holds now (admission budget: UPLOAD_MEMORY_BYTES)', registers: [this.registry],
    collect: (): void => this.uploadGauge.set(this.uploadBytes()),
  });
  private readonly overload = new Counter({ name: 'vigil_overload_rejections_total', help: 'Requests refused because the server was full, by kind', labelNames: ['kind'] as const, registers: [this.registry] });

  analysis(status: string): void {
    this.analyses.inc({ status });
  }

  recognition(family: string, outcome: 'read' | 'failed' | 'busy', seconds?: number): void {
    this.reads.inc({ family, outcome });
    if (seconds !== undefined) this.engine.observe({ family }, seconds);
  }

  delivery(channel: 'webhook' | 'mail' | 'mqtt', outcome: 'delivered' | 'failed'): void {
    this.deliveries.inc({ channel, outcome });
  }

  rateLimited(kind: string): void {
    this.limited.inc({ kind });
  }

  overloaded(kind: string): void {
    this.overload.inc({ kind });
  }

  /** The bytes of upload bodies this process holds now (UPLOAD_MEMORY_BYTES admission); an app
   * built again on the same container (tests) takes the gauge over. */
  watchUploads(bytesInFlight: () => number): void {
    this.uploadBytes = bytesInFlight;
  }

  /** Gauges of the job queue. The registry collects every metric at once, so the three gauges
   * share one read of the table per scrape. */
  watchJobs(stats: JobQueueStats): void {
    let pending: ReturnType<JobQueueStats> | undefined;
    const read = () => (pending ??= stats().finally(() => { pending = undefined; }));
    const gauge = (name: string, help: string, value: (s: Awaited<ReturnType<JobQueueStats>>[number], now: number) => number) => new Gauge({
      name, help, labelNames: ['kind'] as const, registers: [this.registry],
      async collect() {
        const now = Date.now();
        const rows = await read();
        this.reset();
        for (const s of rows) this.set({ kind: s.kind }, value(s, now));
      },
    });
    gauge('vigil_jobs_waiting', 'Jobs queued (due or scheduled), by kind', (s) => s.waiting);
    gauge('vigil_jobs_running', 'Jobs running, by kind', (s) => s.running);
    gauge('vigil_job_oldest_due_age_seconds', 'How long the oldest due job of a kind has waited (0 when none)',
      (s, now) => (s.oldestDueAt === null ? 0 : Math.max(0, (now - s.oldestDueAt) / 1000)));
  }
}

/** A rate limiter that counts its refusals (the kind is the key's prefix: `upload:...`). */
export function countingLimiter(limiter: RateLimiter, metrics: Metrics): RateLimiter {
  return {
    async hit(key, max, windowMs, now) {
      const wait = await limiter.hit(key, max, windowMs, now);
      if (wait > 0) metrics.rateLimited(key.split(':')[0] ?? 'unknown');
      return wait;
    },
  };
}
