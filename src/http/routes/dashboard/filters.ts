import type { FastifyRequest } from 'fastify';
import { STATUS_FILTERS } from '../../../domain/camera-status.js';

/** The cameras grid's filter from the query string; anything unknown is ignored. */
export function filterOf(request: FastifyRequest): { status?: string; tag?: string } {
  const q = request.query as { status?: string; tag?: string };
  const status = q.status && (STATUS_FILTERS as readonly string[]).includes(q.status) ? q.status : undefined;
  const tag = q.tag && q.tag.length <= 100 ? q.tag : undefined;
  return { ...(status ? { status } : {}), ...(tag ? { tag } : {}) };
}
