import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../services/errors.js';
import type { Metrics } from '../../services/metrics.js';

export interface UploadAdmissionOptions {
  /** Most request-body bytes the process holds at once (UPLOAD_MEMORY_BYTES). */
  budgetBytes: number;
  /** What a body of unknown length (chunked) is counted as: the largest upload allowed. */
  unknownLengthBytes: number;
  metrics: Metrics;
}

/** Bodies smaller than this (JSON settings, sign-in forms) are not counted: they cannot add up. */
const SMALL_BODY = 64 * 1024;
const RETRY_SECONDS = 1;

/**
 * Admission before buffering: an upload is let in only while the bodies in flight (by their
 * Content-Length, uploads of unknown length at the upload limit) fit the budget, and holds its
 * share until its answer is sent or its connection closes. Uploads are buffered whole (multipart
 * parts, base64 fields) and held while they are read, so without this 40 concurrent 7 MB
 * uploads took the process to 1.3 GB. One upload is always let in, however large, so a budget
 * below the upload limit slows uploads rather than refusing them all.
 */
const uploadAdmission: FastifyPluginAsync<UploadAdmissionOptions> = async (app, options) => {
  let inFlight = 0;
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'POST' && request.method !== 'PUT' && request.method !== 'PATCH') return;
    const declared = Number(request.headers['content-length']);
    const bytes = Number.isFinite(declared) && declared >= 0 ? declared : options.unknownLengthBytes;
    if (bytes < SMALL_BODY) return;
    if (inFlight > 0 && inFlight + bytes > options.budgetBytes) {
      options.metrics.overloaded('uploads');
      throw new AppError(503, 'server_busy', `The server is receiving as many uploads as it can hold (${Math.round(options.budgetBytes / (1024 * 1024))} MB). Try again in a second.`,
        { 'retry-after': String(RETRY_SECONDS) });
    }
    inFlight += bytes;
    let held = true;
    const release = () => {
      if (held) inFlight -= bytes;
      held = false;
    };
    // Answered, or the connection closed first (a client that gave up).
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
  });
  app.decorate('uploadsInFlight', () => inFlight);
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Bytes of upload bodies the process holds now (see upload-admission.plugin.ts). */
    uploadsInFlight(): number;
  }
}

export const uploadAdmissionPlugin = fp(uploadAdmission, { name: 'upload-admission' });
