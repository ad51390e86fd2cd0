import { writeFileSync } from 'node:fs';
import { ADMIN_REST_TYPES, adminRestTypes, coreOpenApiDocument } from './admin-rest-types.ts';

// `npm run generate:admin-types`: the admin app's REST types, again from the OpenAPI document
writeFileSync(ADMIN_REST_TYPES, await adminRestTypes(await coreOpenApiDocument()));
console.log(`written: ${ADMIN_REST_TYPES}`);
