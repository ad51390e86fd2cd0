import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ADMIN_REST_TYPES, adminRestTypes, coreOpenApiDocument } from '../../scripts/admin-rest-types.ts';

describe("the admin app's REST types (core/admin/app/rest-api.d.ts)", () => {
  it('are what the OpenAPI document generates now; when not, npm run generate:admin-types', async () => {
    const generated = await adminRestTypes(await coreOpenApiDocument());
    expect(generated).toContain("'/billing/v1/invoices': {");
    expect(generated).toContain("'audit-entry': {");
    expect(readFileSync(ADMIN_REST_TYPES, 'utf8')).toBe(generated);
  });
});
