import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardSession, SessionService } from '../../../services/dashboard/session.service.js';
import { AppError, errors } from '../../../services/errors.js';
import type { PageContext } from './layout.js';

export const SESSION_COOKIE = 'vigil_session';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: DashboardSession | null;
  }
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** HttpOnly (no script reads it), SameSite=Lax (no cross-site POST carries it), Secure behind
 * an https PUBLIC_URL. */
export function sessionCookie(token: string, o: { maxAgeSeconds: number; secure: boolean }): string {
  return [`${SESSION_COOKIE}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${o.maxAgeSeconds}`, ...(o.secure ? ['Secure'] : [])].join('; ');
}

export function clearedCookie(secure: boolean): string {
  return sessionCookie('', { maxAgeSeconds: 0, secure });
}

/** A path on this site to return to after signing in (never another origin). */
export function safeNext(next: string | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') && next.length < 500 ? next : '/';
}

/** preHandler: the signed-in account, or a redirect to the sign-in page (401 for JSON). */
export function requireSession(sessions: SessionService) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await sessions.resolve(readCookie(request, SESSION_COOKIE));
    if (session) {
      request.dashboardSession = session;
      return;
    }
    if (request.url.startsWith('/live/')) return reply.code(401).send({ message: 'Sign in again.', code: 'unauthorized' });
    const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
    return reply.redirect(`/login${next}`, 303);
  };
}

export function sessionOf(request: FastifyRequest): DashboardSession {
  if (!request.dashboardSession) throw new AppError(401, 'unauthorized', 'Sign in first.');
  return request.dashboardSession;
}

export function pageContext(request: FastifyRequest): PageContext {
  const s = sessionOf(request);
  return { account: s.account, csrf: s.csrfToken };
}

/** False when the browser says the form comes from another site (no Origin: true). */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return true;
  try {
    // Parsed both ways so default ports compare equal (`localhost:80` is `localhost`).
    const o = new URL(origin);
    return o.host === new URL(`${o.protocol}//${request.headers.host ?? ''}`).host;
  } catch {
    return false;
  }
}

/** Every state-changing form carries the session's token; a cross-origin Origin is refused too. */
export function assertCsrf(sessions: SessionService, request: FastifyRequest, submitted: string | undefined): void {
  if (!sameOrigin(request)) throw new AppError(403, 'csrf_failed', 'This form was sent from another site and was refused.');
  if (!sessions.checkCsrf(sessionOf(request), submitted)) {
    throw new AppError(403, 'csrf_failed', 'The form has expired or did not come from this dashboard. Reload the page and try again.');
  }
}

/** One field of what the app parsed from a request (a urlencoded form, a query string, route
 * params: `name -> value or values`): its first text value. The pages take no schemas, so
 * each field is read and checked where it is used. */
/** The numeric `:id` of the route; 404 for anything else. */
export function idParam(request: FastifyRequest): number {
  const raw = textField(request.params, 'id') ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw errors.notFound('Not found.');
  return Number(raw);
}

export function textField(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null || !Object.hasOwn(source, name)) return undefined;
  const v: unknown = Reflect.get(source, name);
  const first: unknown = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first : undefined;
}

/** A urlencoded form field (see textField). */
export const formField = textField;
