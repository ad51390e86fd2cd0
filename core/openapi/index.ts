import { defineModule } from '../modules/define-module.ts';
import { openApiDocument } from './openapi-document.ts';

/**
 * The API's OpenAPI 3.1 document, made on each request from the live route registry (the core's routes
 * and the active plugins'): `GET /wp-json/billing/v1/openapi.json` for signed-in users, as the namespace
 * index is, and `billing openapi` on the command line. See docs/api.md.
 */
export const openapiModule = defineModule({
  name: 'openapi',
  requires: ['rest'],
  rest: (ctx) => [
    {
      path: '/openapi.json',
      methods: 'GET',
      capability: 'read',
      description: 'This API as an OpenAPI 3.1 document: the routes of the core and of the active plugins.',
      response: { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } },
      handler: async () => openApiDocument(ctx.use.rest.listRoutes(), ctx.config.baseUrl),
    },
  ],
  commands: (ctx) => [
    {
      words: ['openapi'],
      usage: 'billing openapi',
      run: async () => openApiDocument(ctx.use.rest.listRoutes(), ctx.config.baseUrl),
      text: (doc) => JSON.stringify(doc, null, 2),
    },
  ],
});
