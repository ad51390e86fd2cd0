import { BillingError } from '../errors.ts';
import type { ArgSchema } from '../http/rest/route.ts';
import { checkArgs } from '../validation/args.ts';
import { invalidParam } from '../validation/invalid-param.ts';
import { describeTextProblem, textProblem } from '../validation/text.ts';
import type { DocumentInput } from './document-schema.ts';

/** `id` absent (or empty, as a builder's form sends for a new document) creates. */
export function isNew(params: Record<string, unknown>): boolean {
  return params.id === undefined || params.id === null || params.id === '';
}

/**
 * The builder's field `invoice` / `quote`: the document as JSON text (or an object, when the request
 * itself is JSON), checked with the schemas of `POST /invoices` / `POST /quotes`, so the same input gets
 * the same codes on both surfaces.
 */
export function builderInput(params: Record<string, unknown>, field: 'invoice' | 'quote', args: Record<string, ArgSchema>): DocumentInput {
  const raw = params[field];
  if (raw === undefined || raw === '') {
    throw new BillingError('rest_missing_callback_param', `Missing parameter(s): ${field}`, { params: [field] });
  }
  let body: unknown = raw;
  if (typeof raw === 'string') {
    try {
      body = JSON.parse(raw);
    } catch {
      throw new BillingError('rest_invalid_json', `Field ${field} is not valid JSON.`);
    }
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidParam(field, `${field} must be a JSON object.`);
  const problem = textProblem(body, field);
  if (problem) throw new BillingError('billing_bad_request', describeTextProblem(problem));
  return checkArgs(args, body as Record<string, unknown>) as DocumentInput;
}
