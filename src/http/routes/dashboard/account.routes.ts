import type { TypedApp } from '../../typed-app.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DashboardService } from '../../../services/dashboard/dashboard.service.js';
import type { SessionService } from '../../../services/dashboard/session.service.js';
import type { WebhookService } from '../../../services/webhooks/webhook.service.js';
import { alertsPage, tokensPage, WEBHOOK_NOTICES, webhooksPage } from './pages.view.js';
import { assertCsrf, formField, idParam, pageContext, requireSession, sessionOf, textField } from './session.js';

/** Alerts, API tokens and webhooks of the signed-in account. */
export async function accountPages(app: TypedApp, opts: { dashboard: DashboardService; webhooks: WebhookService; sessions: SessionService }) {
  const { dashboard, webhooks, sessions } = opts;
  const preHandler = requireSession(sessions);
  const accountId = (request: FastifyRequest) => sessionOf(request).account.id;
  const csrf = (request: FastifyRequest) => assertCsrf(sessions, request, formField(request.body, '_csrf'));

  app.get('/alerts', { preHandler }, async (request, reply) =>
    reply.type('text/html').send(alertsPage(pageContext(request), await dashboard.alerts(accountId(request))).value));

  app.get('/tokens', { preHandler }, async (request, reply) =>
    reply.type('text/html').send(tokensPage(pageContext(request), await dashboard.tokens(accountId(request))).value));

  // The new token is rendered in this response only: it is stored as a hash and never shown again.
  app.post('/tokens/create', { preHandler }, async (request, reply) => {
    csrf(request);
    const token = await dashboard.createToken(accountId(request));
    return reply.type('text/html').send(tokensPage(pageContext(request), await dashboard.tokens(accountId(request)), token).value);
  });

  app.post('/tokens/:id/revoke', { preHandler }, async (request, reply) => {
    csrf(request);
    await dashboard.revokeToken(accountId(request), idParam(request));
    return reply.redirect('/tokens', 303);
  });

  app.get('/webhooks', { preHandler }, async (request, reply) => {
    const saved = textField(request.query, 'saved');
    return reply.type('text/html').send(webhooksPage(pageContext(request), await dashboard.webhooks(accountId(request)), { notice: saved ? WEBHOOK_NOTICES[saved] : undefined }).value);
  });

  app.post('/webhooks/create', { preHandler }, async (request, reply) => {
    csrf(request);
    const { secret } = await webhooks.create(accountId(request), { url: formField(request.body, 'url') ?? '', family: formField(request.body, 'family') });
    return reply.type('text/html').send(webhooksPage(pageContext(request), await dashboard.webhooks(accountId(request)), { secret }).value);
  });

  app.post('/webhooks/:id/enable', { preHandler }, async (request, reply) => {
    csrf(request);
    await webhooks.enable(accountId(request), idParam(request));
    return reply.redirect('/webhooks?saved=enabled', 303);
  });

  app.post('/webhooks/:id/test', { preHandler }, async (request, reply) => {
    csrf(request);
    await dashboard.sendTestEvent(accountId(request), idParam(request));
    return reply.redirect('/webhooks?saved=test', 303);
  });

  app.post('/webhooks/:id/delete', { preHandler }, async (request, reply) => {
    csrf(request);
    await webhooks.remove(accountId(request), idParam(request));
    return reply.redirect('/webhooks?saved=deleted', 303);
  });
}
