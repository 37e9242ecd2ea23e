import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TSchema } from 'typebox';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The fields of a form body, for the OpenAPI document only: multipart bodies are read by
     * the route itself (streamed, with its own limits), not validated from a schema. */
    formBody?: TSchema;
  }
}

/** The OpenAPI document is generated from the route schemas; the reference page is served from
 * the package's own files (no CDN). OpenAPI 3.1, whose schemas are JSON Schema as the routes
 * write them (3.0's `exclusiveMaximum` is a boolean, the routes' is a number). */
export const openapiPlugin = fp(async (app: FastifyInstance, opts: { version: string }) => {
  await app.register(swagger, {
    // A route's form fields document its body (so /docs can try an upload) without validating it.
    transform: ({ schema, url, route }) => {
      const formBody = route.config?.formBody;
      return { schema: formBody ? { ...schema, body: formBody } : schema, url };
    },
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Vigil API', version: opts.version, description: 'Camera monitoring, text and plate recognition.' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <API_TOKEN>' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
