import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../../typed-app.js';
import type { SessionService } from '../../../services/dashboard/session.service.js';
import { errors } from '../../../services/errors.js';
import { WATCHLIST_TAGS, type WatchlistService, type WatchlistTag } from '../../../services/recognition/watchlist.service.js';
import { parsePlateLines } from '../../../domain/plates/plate-keys.js';
import { watchlistsPage } from './watchlists.view.js';
import { assertCsrf, formField, idParam, pageContext, requireSession, sessionOf, textField } from './session.js';

const NOTICES: Record<string, string> = { created: 'Watchlist created.', saved: 'Plates saved.', deleted: 'Watchlist deleted.' };

function tagOf(value: string | undefined): WatchlistTag {
  const tag = WATCHLIST_TAGS.find((t) => t === value);
  if (!tag) throw errors.badRequest(`The tag must be one of ${WATCHLIST_TAGS.join(', ')}.`, 'invalid_watchlist');
  return tag;
}

/** `/watchlists`: the account's plate watchlists, created, edited and deleted from the dashboard. */
export async function watchlistPages(app: TypedApp, opts: { watchlists: WatchlistService; sessions: SessionService }) {
  const { watchlists, sessions } = opts;
  const preHandler = requireSession(sessions);
  const accountId = (request: FastifyRequest) => sessionOf(request).account.id;
  const csrf = (request: FastifyRequest) => assertCsrf(sessions, request, formField(request.body, '_csrf'));

  app.get('/watchlists', { preHandler }, async (request, reply) => {
    const saved = textField(request.query, 'saved');
    return reply.type('text/html').send(watchlistsPage(pageContext(request), await watchlists.list(accountId(request)), saved ? NOTICES[saved] : undefined).value);
  });

  app.post('/watchlists/create', { preHandler }, async (request, reply) => {
    csrf(request);
    const body = request.body;
    await watchlists.create(accountId(request), {
      name: (formField(body, 'name') ?? '').trim(), tag: tagOf(formField(body, 'tag')), fuzzy: formField(body, 'fuzzy') === 'on',
      plates: parsePlateLines(formField(body, 'plates') ?? ''),
    });
    return reply.redirect('/watchlists?saved=created', 303);
  });

  app.post('/watchlists/:id/plates', { preHandler }, async (request, reply) => {
    csrf(request);
    await watchlists.replacePlates(accountId(request), idParam(request), parsePlateLines(formField(request.body, 'plates') ?? ''));
    return reply.redirect('/watchlists?saved=saved', 303);
  });

  app.post('/watchlists/:id/delete', { preHandler }, async (request, reply) => {
    csrf(request);
    await watchlists.remove(accountId(request), idParam(request));
    return reply.redirect('/watchlists?saved=deleted', 303);
  });
}
