import type { TypedApp } from '../../typed-app.js';
import { Type } from 'typebox';
import type { ImageService } from '../../../services/images.service.js';
import { errors } from '../../../services/errors.js';

/** Signed image URLs: no API token, the signature is the credential. */
export async function imageRoutes(app: TypedApp, opts: { images: ImageService }) {
  app.get(
    '/v1/images/:publicId',
    {
      schema: {
        summary: 'A stored image by its signed URL (the API hands these out: reference_image, snapshot, file_url); no token, the signature is the credential',
        tags: ['images'],
        produces: ['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif', 'image/heif'],
        params: Type.Object({ publicId: Type.String({ pattern: '^[A-Za-z0-9_-]{10,64}$' }) }),
        querystring: Type.Object({ expires: Type.Integer(), signature: Type.String({ maxLength: 128 }) }),
      },
    },
    async (request, reply) => {
      const { publicId } = request.params;
      const { expires, signature } = request.query;
      const image = await opts.images.open(publicId, expires, signature);
      if (!image) throw errors.notFound('Image not found or link expired.', 'image_not_found');
      return reply
        .type(image.row.content_type)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(image.bytes);
    },
  );
}
