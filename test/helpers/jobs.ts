import type { JobContext, JobHandlerDefinition, JobHandlers, JobKind, JobPayload } from '../../src/queue/jobs.js';

/** Queue-mechanics tests run one handler for every kind of job and tell jobs apart by a tag:
 * `tagged` builds a valid payload of a kind that carries the tag, and `everyKind`'s handlers
 * receive the tag back. Kinds whose payloads hold only numbers carry a tag's number here. */
const numbered: string[] = [];
const numberOf = (tag: string) => (numbered.includes(tag) ? numbered.indexOf(tag) : numbered.push(tag) - 1) + 1;

export function tagged<K extends JobKind>(kind: K, tag: string | number): JobPayload<K> {
  const text = String(tag);
  const payloads: { [P in JobKind]: JobPayload<P> } = {
    'camera.analyze': { cameraId: 1, imageId: numberOf(text), uploadedAt: 0 },
    'alert.dispatch': { alertId: numberOf(text) },
    'webhook.deliver': { webhookId: 1, deliveryId: text, event: 'test', body: null },
    'mail.send': { message: { to: 'test@example.com', subject: text, text: '' } },
    'mqtt.publish': { messages: [{ topic: text || '_', payload: '', retain: false }], announce: [] },
  };
  return payloads[kind];
}

function tagOf(payload: JobPayload<JobKind>): string {
  if ('imageId' in payload) return numbered[payload.imageId - 1]!;
  if ('alertId' in payload) return numbered[payload.alertId - 1]!;
  if ('deliveryId' in payload) return payload.deliveryId;
  if ('messages' in payload) return payload.messages[0]!.topic === '_' ? '' : payload.messages[0]!.topic;
  return payload.message.subject;
}

export interface TagHandler {
  run: (tag: string, context: JobContext) => Promise<void>;
  onRetry?: (tag: string, error: Error, context: JobContext) => Promise<void>;
  onGiveUp?: (tag: string, error: Error, context: JobContext) => Promise<void>;
}

/** The same handler for every kind of job. */
export function everyKind(handler: TagHandler): JobHandlers {
  const def = <K extends JobKind>(): JobHandlerDefinition<K> => ({
    run: (p, c) => handler.run(tagOf(p), c),
    onRetry: async (p, e, c) => handler.onRetry?.(tagOf(p), e, c),
    onGiveUp: async (p, e, c) => handler.onGiveUp?.(tagOf(p), e, c),
  });
  return { 'camera.analyze': def(), 'alert.dispatch': def(), 'webhook.deliver': def(), 'mail.send': def(), 'mqtt.publish': def() };
}
