import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';
import { loadConfig } from '../core/config.ts';
import { Kernel } from '../core/kernel.ts';
import { silentLogger } from '../core/log.ts';
import { openApiDocument } from '../core/openapi/openapi-document.ts';
import { freshDatabase } from '../testing/database.ts';

/** The admin app's REST types, generated from the service's OpenAPI document and committed. */
export const ADMIN_REST_TYPES = resolve(import.meta.dirname, '../core/admin/app/rest-api.d.ts');

/**
 * The REST paths the admin app calls (besides the routes plugins name in their screens' data, which
 * it treats as rows of any shape). Only these and the schemas they refer to are in the generated file,
 * so a route the app does not call changes nothing there.
 */
const ADMIN_PATHS = [
  '/billing/v1/invoices',
  '/billing/v1/invoices/{id}',
  '/billing/v1/quotes',
  '/billing/v1/quotes/{id}',
  '/billing/v1/clients',
  '/billing/v1/clients/{id}/payment-methods',
  '/billing/v1/clients/{id}/payment-methods/{pm}',
  '/billing/v1/payments',
  '/billing/v1/audit-log',
  '/billing/v1/imports',
  '/billing/v1/imports/{id}',
  '/billing/v1/translations/{locale}',
];

type Json = Record<string, any>;

/** The document cut to ADMIN_PATHS and the component schemas they reach. */
function adminDocument(doc: Json): Json {
  const paths = Object.fromEntries(ADMIN_PATHS.map((p) => [p, doc.paths[p]]).filter(([, v]) => v));
  const schemas: Json = doc.components?.schemas ?? {};
  const reached = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        const name = k === '$ref' && typeof inner === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(inner)?.[1] : undefined;
        if (name && !reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        } else visit(inner);
      }
    }
  };
  visit(paths);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name)));
  return { ...doc, servers: [], paths, components: { ...doc.components, schemas: kept } };
}

/** The text of core/admin/app/rest-api.d.ts for `doc` (the live document), formatted as the repository is. */
export async function adminRestTypes(doc: Json): Promise<string> {
  const ast = await openapiTS(adminDocument(doc) as never);
  const text = [
    "// Generated from the service's OpenAPI document by scripts/admin-rest-types.ts: do not edit.",
    '// After changing a route or representation the admin app reads: npm run generate:admin-types',
    '// (test/admin/rest-types.test.ts fails while this file is stale).',
    '',
    astToString(ast),
  ].join('\n');
  const options = (await prettier.resolveConfig(ADMIN_REST_TYPES)) ?? {};
  return prettier.format(text, { ...options, filepath: ADMIN_REST_TYPES });
}

/**
 * The core's OpenAPI document, from a kernel booted without serving on a fresh database (embedded
 * unless TEST_DATABASE_URL names a server), so no plugin is active and nothing of a site leaks in.
 */
export async function coreOpenApiDocument(): Promise<Json> {
  const db = await freshDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-data-'));
  try {
    const config = loadConfig({}, { port: 8080, baseUrl: 'http://localhost:8080', databaseUrl: db.url, dataDir });
    const k = await Kernel.boot(config, { serve: false, log: silentLogger(), announce: () => {} });
    try {
      return openApiDocument(k.rest.listRoutes(), config.baseUrl);
    } finally {
      await k.stop();
    }
  } finally {
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
