import type { Config } from '../config.ts';
import { RestResponse, type RestRoute } from '../http/rest/route.ts';
import { DATE_FORMATS } from './cell-readers.ts';
import { IMPORT_BODY_LIMIT, type ImportService } from './import-service.ts';

const ID = { id: { type: 'integer', required: true, minimum: 1, description: 'The import' } } as const;
const IMPORT = { param: 'id', kind: 'import' } as const;
const FAILED = {
  type: 'array',
  items: { type: 'object', properties: { row: { type: 'integer' }, message: { type: 'string' } }, required: ['row', 'message'] },
};

/** An import's state: its status and progress, and its counts so far (the result once `done`). */
export const IMPORT_STATE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'import',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    resource: { type: 'string' },
    preset: { type: ['string', 'null'] },
    status: { type: 'string', enum: ['previewed', 'queued', 'running', 'done', 'failed'] },
    progress: { type: 'number', minimum: 0, maximum: 1 },
    rows: { type: 'integer', description: 'Data rows in the file (the header not counted)' },
    created: { type: 'integer', description: 'Records created (invoices, not their line rows)' },
    updated: { type: 'integer' },
    skipped: { type: 'integer', description: 'Records already here as the file says' },
    failed: { ...FAILED, description: 'Rows not imported, with why (row 1 is the first data row)' },
    error: { type: ['string', 'null'], description: 'Why the import stopped, when it did' },
  },
  required: ['id', 'resource', 'preset', 'status', 'progress', 'rows', 'created', 'updated', 'skipped', 'failed', 'error'],
};

export const IMPORT_PREVIEW_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'import-preview',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    resource: { type: 'string' },
    preset: { type: ['string', 'null'] },
    columns: { type: 'array', items: { type: 'string' } },
    mapping: { type: 'object', additionalProperties: { type: ['string', 'null'] }, description: 'column → field, or null (ignored)' },
    rows: { type: 'integer' },
    sample: { type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } }, description: 'The first rows as fields' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { row: { type: 'integer' }, column: { type: ['string', 'null'] }, message: { type: 'string' } },
        required: ['row', 'column', 'message'],
      },
    },
  },
  required: ['id', 'resource', 'preset', 'columns', 'mapping', 'rows', 'sample', 'errors'],
};

/** `POST /imports`, `POST /imports/{id}/commit`, `GET /imports/{id}` (docs/import-export.md), for `bill_manage_settings`. */
export function importRoutes(imports: ImportService, config: Config): RestRoute[] {
  return [
    {
      path: '/imports',
      methods: 'POST',
      capability: 'bill_manage_settings',
      description:
        'Reads a CSV file (the raw body, at most 50 MiB) and answers its columns, a proposed mapping and its first rows. Nothing is imported yet.',
      requestTypes: ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel', 'application/octet-stream'],
      // a business's whole history as CSV runs to tens of megabytes
      bodyLimit: IMPORT_BODY_LIMIT,
      args: {
        resource: {
          type: 'string',
          required: true,
          maxLength: 60,
          description: 'clients, invoices, payments (items with the item library)',
        },
        preset: { type: 'string', maxLength: 60, description: 'generic, invoice-ninja, freshbooks, wave, zoho' },
      },
      response: { status: 201, schema: IMPORT_PREVIEW_SCHEMA, errors: ['billing_import_unreadable', 'billing_busy'] },
      handler: async (req) => {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const preview = await imports.preview(body, req.params.resource, req.params.preset ?? null, req.actor);
        return new RestResponse(preview, 201, { Location: `${config.baseUrl}/wp-json/billing/v1/imports/${preview.id}` });
      },
    },
    {
      path: '/imports/(?P<id>[\\d]+)/commit',
      methods: 'POST',
      capability: 'bill_manage_settings',
      object: IMPORT,
      description:
        'Imports a previewed file with its mapping (the proposed one, changed by `mapping`). Answers the result when done within a few seconds (200), else its progress (202): follow it with GET /imports/{id}.',
      args: {
        ...ID,
        mapping: {
          type: 'object',
          additionalProperties: { type: ['string', 'null'] },
          description: 'column → field (null: ignore the column)',
        },
        date_format: { type: 'string', enum: [...DATE_FORMATS], description: 'How the file writes dates (auto: detected)' },
        decimal_separator: { type: 'string', enum: ['.', ','], description: 'The decimal separator of amounts (`,` reads 1.234,50)' },
      },
      response: { status: [200, 202], schema: IMPORT_STATE_SCHEMA, errors: ['billing_rest_invalid_state'] },
      handler: async (req) => {
        const state = await imports.commit(
          req.params.id,
          { mapping: req.params.mapping, date_format: req.params.date_format, decimal_separator: req.params.decimal_separator },
          req.actor,
        );
        return new RestResponse(state, state.status === 'done' || state.status === 'failed' ? 200 : 202);
      },
    },
    {
      path: '/imports/(?P<id>[\\d]+)',
      methods: 'GET',
      capability: 'bill_manage_settings',
      object: IMPORT,
      args: ID,
      description: "An import's status, progress (0–1) and counts.",
      schema: IMPORT_STATE_SCHEMA,
      response: { schema: IMPORT_STATE_SCHEMA },
      handler: (req) => imports.state(req.params.id),
    },
  ];
}
