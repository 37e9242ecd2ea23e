import type { TypedApp } from '../../typed-app.js';
import type { SessionService } from '../../../services/dashboard/session.service.js';
import { ThumbnailService } from '../../../services/dashboard/thumbnails.js';
import { errors } from '../../../services/errors.js';
import { requireSession, sessionOf, textField } from './session.js';

/** `GET /thumbnails/:publicId`: a 320 px JPEG of one of the account's images. Private (the
 * session decides), cached by the browser for a day and revalidated by ETag. */
export async function thumbnailRoutes(app: TypedApp, opts: { sessions: SessionService; thumbnails: ThumbnailService }) {
  const { thumbnails } = opts;
  app.get('/thumbnails/:publicId', { preHandler: requireSession(opts.sessions) }, async (request, reply) => {
    const publicId = textField(request.params, 'publicId') ?? '';
    const accountId = sessionOf(request).account.id;
    const etag = ThumbnailService.etagOf(publicId);
    reply.header('cache-control', 'private, max-age=86400').header('etag', etag);
    if (request.headers['if-none-match'] === etag && (await thumbnails.owns(accountId, publicId))) return reply.code(304).send();
    const thumb = await thumbnails.of(accountId, publicId);
    if (!thumb) {
      reply.removeHeader('etag').header('cache-control', 'no-store');
      throw errors.notFound('Not found.');
    }
    return reply.type('image/jpeg').send(thumb.bytes);
  });
}
