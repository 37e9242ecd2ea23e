import { Type } from 'typebox';
import { WATCHLIST_TAGS, type WatchlistService, type WatchlistTag } from '../../../services/recognition/watchlist.service.js';
import type { TypedApp } from '../../typed-app.js';
import { ErrorDetail, plateAccountOf, useRecognitionErrors } from './recognition-params.js';

// A plain enum so a wrong value lists the allowed ones.
const Tag = Type.Unsafe<WatchlistTag>({ type: 'string', enum: [...WATCHLIST_TAGS], description: 'alert, allow or deny: what the list is for; matches go to plate-watchlist webhooks' });
const Entry = Type.Object({ plate: Type.String({ maxLength: 32 }), note: Type.Optional(Type.String({ maxLength: 200 })) });
const Plates = Type.Array(Entry, { maxItems: 10_000 });
const Watchlist = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  tag: Tag,
  fuzzy: Type.Boolean({ description: 'look-alikes and plates one character off match too' }),
  plates: Type.Array(Type.Object({ plate: Type.String(), note: Type.String() })),
  created: Type.String({ format: 'date-time' }),
});
const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
const common = { tags: ['plate-recognition'], security: [{ token: [] }] };


/** /v1/watchlists/: named lists of plates each read is checked against (Vigil extension). */
export async function watchlistRoutes(app: TypedApp, opts: { watchlists: WatchlistService }) {
  useRecognitionErrors(app);

  app.get('/watchlists/', {
    onRequest: app.requireAccount,
    schema: { ...common, summary: 'The account\'s watchlists', response: { 200: Type.Array(Watchlist), 401: ErrorDetail, 403: ErrorDetail } },
  }, async (request) => opts.watchlists.list(plateAccountOf(request).id));

  app.post('/watchlists/', {
    onRequest: app.requireAccount,
    schema: {
      ...common, summary: 'Create a watchlist',
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), tag: Tag, fuzzy: Type.Optional(Type.Boolean()), plates: Type.Optional(Plates) }),
      response: { 201: Watchlist, 400: ErrorDetail, 401: ErrorDetail, 403: ErrorDetail, 409: ErrorDetail },
    },
  }, async (request, reply) => {
    const { name, tag, fuzzy = false, plates = [] } = request.body;
    return reply.code(201).send(await opts.watchlists.create(plateAccountOf(request).id, { name, tag, fuzzy, plates }));
  });

  app.get('/watchlists/:id/', {
    onRequest: app.requireAccount,
    schema: { ...common, summary: 'One watchlist', params: Id, response: { 200: Watchlist, 401: ErrorDetail, 403: ErrorDetail, 404: ErrorDetail } },
  }, async (request) => opts.watchlists.get(plateAccountOf(request).id, request.params.id));

  app.put('/watchlists/:id/plates/', {
    onRequest: app.requireAccount,
    schema: { ...common, summary: 'Replace a watchlist\'s plates', params: Id, body: Type.Object({ plates: Plates }), response: { 200: Watchlist, 400: ErrorDetail, 401: ErrorDetail, 403: ErrorDetail, 404: ErrorDetail } },
  }, async (request) => opts.watchlists.replacePlates(plateAccountOf(request).id, request.params.id, request.body.plates));

  app.delete('/watchlists/:id/', {
    onRequest: app.requireAccount,
    schema: { ...common, summary: 'Delete a watchlist', params: Id, response: { 204: Type.Null(), 401: ErrorDetail, 403: ErrorDetail, 404: ErrorDetail } },
  }, async (request, reply) => {
    await opts.watchlists.remove(plateAccountOf(request).id, request.params.id);
    return reply.code(204).send(null);
  });
}
