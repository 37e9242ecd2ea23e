import type { FastifyRequest } from 'fastify';
import { STATUS_FILTERS } from '../../../domain/camera-status.js';
import { textField } from './session.js';

/** The cameras grid's filter from the query string; anything unknown is ignored. */
export function filterOf(request: FastifyRequest): { status?: string; tag?: string } {
  const asked = textField(request.query, 'status');
  const status = STATUS_FILTERS.find((s) => s === asked);
  const given = textField(request.query, 'tag');
  const tag = given && given.length <= 100 ? given : undefined;
  return { ...(status ? { status } : {}), ...(tag ? { tag } : {}) };
}
