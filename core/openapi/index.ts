import { defineModule } from '../modules/define-module.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import { openApiDocument, type ResourceFields } from './openapi-document.ts';

/** Resources whose representation plugins extend (each has its `billing_rest_<resource>` filter). */
const EXTENSIBLE = ['invoice', 'quote', 'client'] as const;

/** What the active plugins add to each extensible resource (`billing_rest_fields`). */
async function pluginFields(hooks: HookRegistry): Promise<ResourceFields> {
  const out: ResourceFields = {};
  for (const resource of EXTENSIBLE) out[resource] = await hooks.applyFilters('billing_rest_fields', {}, resource);
  return out;
}

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
      handler: async () => openApiDocument(ctx.use.rest.listRoutes(), ctx.config.baseUrl, await pluginFields(ctx.hooks)),
    },
  ],
  commands: (ctx) => [
    {
      words: ['openapi'],
      usage: 'billing openapi',
      run: async () => openApiDocument(ctx.use.rest.listRoutes(), ctx.config.baseUrl, await pluginFields(ctx.hooks)),
      text: (doc) => JSON.stringify(doc, null, 2),
    },
  ],
});
