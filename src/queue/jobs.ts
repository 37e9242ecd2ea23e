/** Every kind of background job, named noun.verb. Each has exactly one handler (checked at start). */
export const JOB_KINDS = ['camera.analyze', 'alert.dispatch', 'webhook.deliver', 'mail.send'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Jobs run in lanes with their own slots, so slow deliveries (a webhook target that hangs until
 * its timeout, an SMTP server that crawls) never hold up camera analyses, and the reverse. */
export const JOB_LANES = {
  analysis: ['camera.analyze'],
  delivery: ['alert.dispatch', 'webhook.deliver', 'mail.send'],
} as const satisfies Record<string, readonly JobKind[]>;
export type JobLane = keyof typeof JOB_LANES;
export const LANE_NAMES = Object.keys(JOB_LANES) as JobLane[];

export function laneOf(kind: string): JobLane {
  return LANE_NAMES.find((lane) => (JOB_LANES[lane] as readonly string[]).includes(kind)) ?? 'delivery';
}

export interface JobContext {
  jobId: number;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
}

export type JobHandler = (payload: unknown, context: JobContext) => Promise<void>;

export interface JobHandlerDefinition {
  run: JobHandler;
  /** Called once when the last attempt failed, to record the failure where users see it. */
  onGiveUp?: (payload: unknown, error: Error, context: JobContext) => Promise<void>;
  /** Called before each retry is scheduled. */
  onRetry?: (payload: unknown, error: Error, context: JobContext) => Promise<void>;
  maxAttempts?: number;
}

export type JobHandlers = Record<JobKind, JobHandlerDefinition>;

export interface EnqueueOptions {
  runAt?: number;
  maxAttempts?: number;
}

/** The job port: the service side only enqueues. */
export interface JobQueue {
  enqueue(kind: JobKind, payload: unknown, options?: EnqueueOptions): Promise<number>;
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

export function assertHandlersComplete(handlers: Partial<Record<string, JobHandlerDefinition>>): asserts handlers is JobHandlers {
  const missing = JOB_KINDS.filter((k) => !handlers[k]);
  const unknown = Object.keys(handlers).filter((k) => !(JOB_KINDS as readonly string[]).includes(k));
  if (missing.length || unknown.length) {
    throw new Error(`Job handlers do not match job kinds (missing: ${missing.join(', ') || 'none'}; unknown: ${unknown.join(', ') || 'none'})`);
  }
}
