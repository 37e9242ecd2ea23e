import type { FastifyInstance } from 'fastify';
import type { SessionService } from '../../../services/dashboard/session.service.js';
import { AppError } from '../../../services/errors.js';
import { loginPage } from './pages.view.js';
import { assertCsrf, clearedCookie, formField, readCookie, requireSession, safeNext, sameOrigin, SESSION_COOKIE, sessionCookie, sessionOf } from './session.js';

export async function authRoutes(app: FastifyInstance, opts: { sessions: SessionService; secureCookies: boolean; ttlMs: number }) {
  const { sessions } = opts;

  app.get('/login', async (request, reply) => {
    const next = safeNext((request.query as { next?: string }).next);
    if (await sessions.resolve(readCookie(request, SESSION_COOKIE))) return reply.redirect(next, 303);
    return reply.type('text/html').send(loginPage({ next }).value);
  });

  app.post('/login', async (request, reply) => {
    const email = (formField(request.body, 'email') ?? '').trim();
    const password = formField(request.body, 'password') ?? '';
    const next = safeNext(formField(request.body, 'next'));
    // No session yet, so no CSRF token: a sign-in posted from another site is refused by origin.
    if (!sameOrigin(request)) return reply.code(403).type('text/html').send(loginPage({ next, error: 'This sign-in form was sent from another site and was refused.' }).value);
    try {
      const { token } = await sessions.signIn(email, password, request.ip);
      return reply
        .header('set-cookie', sessionCookie(token, { maxAgeSeconds: Math.floor(opts.ttlMs / 1000), secure: opts.secureCookies }))
        .redirect(next, 303);
    } catch (err) {
      if (!(err instanceof AppError) || (err.status !== 401 && err.status !== 429)) throw err;
      return reply.code(err.status).headers(err.headers).type('text/html').send(loginPage({ email, next, error: err.message }).value);
    }
  });

  app.post('/logout', { preHandler: requireSession(sessions) }, async (request, reply) => {
    assertCsrf(sessions, request, formField(request.body, '_csrf'));
    await sessions.signOut(sessionOf(request).id);
    return reply.header('set-cookie', clearedCookie(opts.secureCookies)).redirect('/login', 303);
  });
}
