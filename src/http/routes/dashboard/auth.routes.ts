import type { TypedApp } from '../../typed-app.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { LoginLinkService } from '../../../services/dashboard/login-links.service.js';
import type { SessionService } from '../../../services/dashboard/session.service.js';
import { AppError } from '../../../services/errors.js';
import { loginLinkPage, loginPage } from './pages.view.js';
import { assertCsrf, clearedCookie, formField, readCookie, requireSession, safeNext, sameOrigin, SESSION_COOKIE, sessionCookie, sessionOf, textField } from './session.js';

const CROSS_SITE = 'This sign-in form was sent from another site and was refused.';
export const LINK_SENT = 'If an account uses this address, a sign-in link is on its way. It works once, for 15 minutes.';
export const LINK_INVALID = 'This sign-in link was already used, has expired or is not one of ours. Ask for a new one below.';

export async function authRoutes(app: TypedApp, opts: { sessions: SessionService; loginLinks: LoginLinkService; secureCookies: boolean; ttlMs: number }) {
  const { sessions, loginLinks } = opts;
  const linksEnabled = loginLinks.enabled;

  function start(token: string, next: string, reply: FastifyReply) {
    return reply.header('set-cookie', sessionCookie(token, { maxAgeSeconds: Math.floor(opts.ttlMs / 1000), secure: opts.secureCookies })).redirect(next, 303);
  }

  app.get('/login', async (request, reply) => {
    const next = safeNext(textField(request.query, 'next'));
    if (await sessions.resolve(readCookie(request, SESSION_COOKIE))) return reply.redirect(next, 303);
    return reply.type('text/html').send(loginPage({ next, linksEnabled }).value);
  });

  app.post('/login', async (request, reply) => {
    const email = (formField(request.body, 'email') ?? '').trim();
    const password = formField(request.body, 'password') ?? '';
    const next = safeNext(formField(request.body, 'next'));
    // No session yet, so no CSRF token: a sign-in posted from another site is refused by origin.
    if (!sameOrigin(request)) return reply.code(403).type('text/html').send(loginPage({ next, linksEnabled, error: CROSS_SITE }).value);
    try {
      const { token } = await sessions.signIn(email, password, request.ip);
      return start(token, next, reply);
    } catch (err) {
      if (!(err instanceof AppError) || (err.status !== 401 && err.status !== 429)) throw err;
      return reply.code(err.status).headers(err.headers).type('text/html').send(loginPage({ email, next, linksEnabled, error: err.message }).value);
    }
  });

  // Sign-in by e-mail: ask for a link, open it, confirm with one click.
  app.post('/login/link', async (request, reply) => {
    const email = (formField(request.body, 'email') ?? '').trim();
    const next = safeNext(formField(request.body, 'next'));
    if (!sameOrigin(request)) return reply.code(403).type('text/html').send(loginPage({ next, linksEnabled, error: CROSS_SITE }).value);
    try {
      await loginLinks.request(email, request.ip, Date.now(), next);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 429) throw err;
      return reply.code(429).headers(err.headers).type('text/html').send(loginPage({ email, next, linksEnabled, error: err.message }).value);
    }
    return reply.type('text/html').send(loginPage({ email, next, linksEnabled, notice: LINK_SENT }).value);
  });

  app.get('/login/link', async (request, reply) => {
    const token = textField(request.query, 'token') ?? '';
    const next = textField(request.query, 'next');
    return reply.type('text/html').send(loginLinkPage(token, safeNext(next)).value);
  });

  app.post('/login/link/use', async (request, reply) => {
    if (!sameOrigin(request)) return reply.code(403).type('text/html').send(loginPage({ linksEnabled, error: CROSS_SITE }).value);
    const account = await loginLinks.consume(formField(request.body, 'token'));
    if (!account) return reply.code(400).type('text/html').send(loginPage({ linksEnabled, error: LINK_INVALID }).value);
    // Back to the page that asked for sign-in (a local path only: no open redirect).
    return start((await sessions.open(account)).token, safeNext(formField(request.body, 'next')), reply);
  });

  app.post('/logout', { preHandler: requireSession(sessions) }, async (request, reply) => {
    assertCsrf(sessions, request, formField(request.body, '_csrf'));
    await sessions.signOut(sessionOf(request).id);
    return reply.header('set-cookie', clearedCookie(opts.secureCookies)).redirect('/login', 303);
  });
}
