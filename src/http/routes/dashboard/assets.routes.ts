import type { TypedApp } from '../../typed-app.js';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The dashboard's static files live in src/web; this module sits four levels below the
 * repository in both src/ and dist/, so one relative path serves both. */
export const WEB_DIR = path.resolve(import.meta.dirname, '../../../../src/web');

const FILES = { 'dashboard.css': 'text/css; charset=utf-8', 'dashboard.js': 'text/javascript; charset=utf-8', 'favicon.svg': 'image/svg+xml' } as const;

export async function assetRoutes(app: TypedApp) {
  for (const [name, type] of Object.entries(FILES)) {
    const body = fs.readFileSync(path.join(WEB_DIR, name));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
    app.get(`/assets/${name}`, async (request, reply) => {
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type(type).send(body);
    });
  }
}
