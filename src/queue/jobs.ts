import { z } from 'zod';
import { isOneOf } from '../domain/choice.js';

const deliveryRef = z.object({ kind: z.literal('alert'), id: z.number().int() });
const mqttMessage = z.object({ topic: z.string().min(1), payload: z.string(), retain: z.boolean() });

/** Every kind of background job, named noun.verb, and what its job carries: one map, so
 * `enqueue` takes only the payload of its kind, and a handler gets only a payload that passed
 * its kind's schema when the job was stored and again when it is run (a row written by another
 * version, or edited by hand, fails its job with a clear error instead of reaching a handler
 * half-formed). Each kind has exactly one handler (checked at start). */
export const JOB_PAYLOADS = {
  'camera.analyze': z.object({ cameraId: z.number().int(), imageId: z.number().int(), uploadedAt: z.number() }),
  'alert.dispatch': z.object({ alertId: z.number().int() }),
  /** Small: the image of a multipart delivery is read from storage when the job runs.
   * `deliveryId` is the same for every attempt, so receivers can drop duplicates. */
  'webhook.deliver': z.object({
    webhookId: z.number().int(),
    deliveryId: z.string(),
    event: z.string(),
    body: z.unknown(),
    ref: deliveryRef.optional(),
    multipartImageId: z.number().int().optional(),
  }),
  /** The whole message, so a worker needs nothing else. */
  'mail.send': z.object({
    message: z.object({ to: z.string(), subject: z.string(), text: z.string(), html: z.string().optional() }),
    ref: deliveryRef.optional(),
  }),
  /** The messages of one event, built when it happened, and the Home Assistant discovery configs
   * the publishing process sends first unless it already has (services/mqtt). */
  'mqtt.publish': z.object({
    messages: z.array(mqttMessage),
    announce: z.array(mqttMessage),
  }),
};
export type JobKind = keyof typeof JOB_PAYLOADS;
export type JobPayload<K extends JobKind> = z.infer<(typeof JOB_PAYLOADS)[K]>;
export const JOB_KINDS = Object.keys(JOB_PAYLOADS) as JobKind[];

/** The same map seen per kind, so a generic kind's schema parses to that kind's payload. */
const SCHEMAS: { [K in JobKind]: z.ZodType<JobPayload<K>> } = JOB_PAYLOADS;

export const isJobKind = (kind: string): kind is JobKind => Object.hasOwn(JOB_PAYLOADS, kind);

/** The payload of a `kind` job, checked against its schema (at enqueue and before a run). */
export function checkedPayload<K extends JobKind>(kind: K, payload: unknown): JobPayload<K> {
  const parsed = SCHEMAS[kind].safeParse(payload);
  if (!parsed.success) throw new Error(`invalid ${kind} job payload: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Jobs run in lanes with their own slots, so slow deliveries (a webhook target that hangs until
 * its timeout, an SMTP server that crawls) never hold up camera analyses, and the reverse. */
export const JOB_LANES = {
  analysis: ['camera.analyze'],
  delivery: ['alert.dispatch', 'webhook.deliver', 'mail.send', 'mqtt.publish'],
} as const satisfies Record<string, readonly JobKind[]>;
export type JobLane = keyof typeof JOB_LANES;
export const LANE_NAMES = Object.keys(JOB_LANES) as JobLane[];

export function laneOf(kind: string): JobLane {
  return LANE_NAMES.find((lane) => isOneOf(JOB_LANES[lane], kind)) ?? 'delivery';
}

export interface JobContext {
  jobId: number;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
}

export interface JobHandlerDefinition<K extends JobKind> {
  run: (payload: JobPayload<K>, context: JobContext) => Promise<void>;
  /** Called once when the last attempt failed, to record the failure where users see it. */
  onGiveUp?: (payload: JobPayload<K>, error: Error, context: JobContext) => Promise<void>;
  /** Called before each retry is scheduled. */
  onRetry?: (payload: JobPayload<K>, error: Error, context: JobContext) => Promise<void>;
  maxAttempts?: number;
}

export type JobHandlers = { [K in JobKind]: JobHandlerDefinition<K> };

/** A stored job bound to its handler: what the runners call. */
export interface BoundJob {
  run(context: JobContext): Promise<void>;
  onGiveUp(error: Error, context: JobContext): Promise<void>;
  onRetry(error: Error, context: JobContext): Promise<void>;
}

function bind<K extends JobKind>(handlers: JobHandlers, kind: K, payload: unknown): BoundJob {
  const def = handlers[kind];
  const checked = () => checkedPayload(kind, payload);
  return {
    run: (context) => def.run(checked(), context),
    onGiveUp: async (error, context) => def.onGiveUp?.(checked(), error, context),
    onRetry: async (error, context) => def.onRetry?.(checked(), error, context),
  };
}

/** The handler of a stored job (its kind and JSON payload as the jobs table holds them); a
 * kind without a handler, or a payload that is not JSON, fails when it runs. */
export function boundJob(handlers: JobHandlers, kind: string, payloadJson: string): BoundJob {
  const fail = async () => {
    throw new Error(`no handler for job kind ${kind}`);
  };
  if (!isJobKind(kind)) return { run: fail, onGiveUp: async () => undefined, onRetry: async () => undefined };
  let payload: unknown;
  try {
    payload = JSON.parse(payloadJson);
  } catch {
    payload = undefined; // the schema check names it when the job runs
  }
  return bind(handlers, kind, payload);
}

export interface EnqueueOptions {
  runAt?: number;
  maxAttempts?: number;
}

/** The job port: the service side only enqueues. */
export interface JobQueue {
  enqueue<K extends JobKind>(kind: K, payload: JobPayload<K>, options?: EnqueueOptions): Promise<number>;
}

/** Thrown by a handler to be retried after a chosen delay, without counting as an error. */
export class RetryLater extends Error {
  constructor(readonly delayMs: number, message = 'retry later') {
    super(message);
  }
}

/** Exponential backoff: 2 s, 4 s, 8 s ... capped at one hour. */
export function backoffMs(attempt: number): number {
  return Math.min(3_600_000, 2000 * 2 ** Math.max(0, attempt - 1));
}

export function assertHandlersComplete(handlers: Partial<Record<string, unknown>>): asserts handlers is JobHandlers {
  const missing = JOB_KINDS.filter((k) => !handlers[k]);
  const unknown = Object.keys(handlers).filter((k) => !isOneOf(JOB_KINDS, k));
  if (missing.length || unknown.length) {
    throw new Error(`Job handlers do not match job kinds (missing: ${missing.join(', ') || 'none'}; unknown: ${unknown.join(', ') || 'none'})`);
  }
}
