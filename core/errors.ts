/**
 * The one error type of the service. Every failure that reaches a caller is a BillingError with a code
 * from a closed set: the core's list below and the codes plugins declare (`definePlugin({ errors })`);
 * `core/http/error-bodies.ts` maps it to the WordPress-shaped body of the surface it happened on (REST,
 * AJAX, webhook) and the CLI prints its message on one line.
 */
export const ERROR_STATUS = {
  // REST conventions (WordPress core codes, docs/api.md)
  rest_no_route: 404,
  rest_invalid_json: 400,
  rest_missing_callback_param: 400,
  rest_invalid_param: 400,
  rest_payload_too_large: 413,
  rest_cookie_invalid_nonce: 403,
  // service codes
  billing_rest_unauthenticated: 401,
  billing_rest_forbidden: 403,
  billing_rest_not_found: 404,
  billing_rest_no_client: 400,
  billing_rest_number_taken: 400,
  billing_rest_already_trashed: 410,
  billing_rest_trash_only: 400,
  billing_rest_invalid_page_number: 400,
  billing_rest_invalid_state: 409,
  // an Idempotency-Key (or a payment's transaction_id) used again with a different request
  billing_rest_idempotency_mismatch: 409,
  billing_rest_amount_exceeds: 400,
  billing_forbidden: 403,
  billing_invalid_token: 403,
  billing_invalid_signature: 401,
  billing_bad_request: 400,
  billing_payload_too_large: 413,
  billing_gateway_not_configured: 503,
  billing_gateway_unreachable: 503,
  // the database (or another part the service needs) cannot be reached: try again
  billing_unavailable: 503,
  // the PDF renderer's queue is full: `data.retry_after` seconds (and `Retry-After`)
  billing_pdf_busy: 503,
  // every worker that reads untrusted files (e-invoices, images) is busy and its queue is full: `data.retry_after`
  billing_busy: 503,
  // a CSV upload that cannot be read as CSV, or is too complex to read within the import's bounds
  billing_import_unreadable: 400,
  // an attachment whose bytes are not a PDF, PNG, JPEG, CSV, plain text or XLSX file (HTML, SVG, script, programs)
  billing_attachment_type: 415,
  // too many failed sign-ins for the account or the client address: `data.retry_after` seconds (and `Retry-After`)
  billing_too_many_attempts: 429,
  // a listener of a hook that fails closed threw: nothing was done
  billing_hook_failed: 500,
  // e-mail: the mail server refused the message or could not be reached (a bad gateway for the caller)
  billing_mail_failed: 502,
  // the document has no customer e-mail address to send to
  billing_mail_no_recipient: 409,
  // CLI and in-process API
  billing_unknown_option: 400,
  billing_invalid_option: 400,
  billing_unknown_plugin: 404,
  billing_plugin_dependency: 409,
  billing_plugin_incompatible: 409,
  billing_plugin_package_invalid: 400,
  billing_plugin_integrity: 400,
  billing_plugin_permission_denied: 403,
  billing_plugin_active: 409,
  billing_plugin_fault: 500,
  billing_unknown_job: 404,
  billing_unknown_user: 404,
  billing_unknown_app_password: 404,
  billing_invalid_argument: 400,
  // an export archive that is corrupt, tampered with, truncated, too large or of an unknown format
  billing_archive_invalid: 400,
  // a restore into an instance that already holds documents, clients or payments
  billing_import_refused: 409,
  billing_conflict: 409,
  billing_internal: 500,
} as const;

type CoreErrors = typeof ERROR_STATUS;

/**
 * Every error code with its HTTP status: the core's, and those plugins merge in —
 * `declare module 'billing-service' { interface ErrorMap { late_fees_too_high: 400 } }` — and declare
 * as data with the same statuses in `definePlugin({ errors: { late_fees_too_high: { status: 400, … } } })`.
 */
export interface ErrorMap extends CoreErrors {}

export type ErrorCode = keyof ErrorMap & string;

/** A plugin's own error code, as data: its HTTP status and what it means (for the docs and OpenAPI). */
export interface ErrorDeclaration {
  status: number;
  description: string;
}

/** Codes plugins declared, with their status and owner. A code's meaning never changes, so they stay. */
const declared = new Map<string, { status: number; owner: string }>();

/**
 * Makes a plugin's codes known. A code may not shadow the core's or another plugin's (a caller must be
 * able to tell who answered); declaring the same codes again (another instance, a reload) is a no-op.
 */
export function declareErrors(owner: string, errors: Readonly<Record<string, ErrorDeclaration>>): void {
  for (const [code, { status }] of Object.entries(errors)) {
    if (!/^[a-z][a-z0-9_]{2,80}$/.test(code)) throw new Error(`${owner}: error code "${code}" is not snake_case`);
    if (!Number.isInteger(status) || status < 400 || status > 599) throw new Error(`${owner}: error ${code} needs a 4xx or 5xx status`);
    const taken = code in ERROR_STATUS ? 'the core' : declared.get(code)?.owner;
    if (taken !== undefined && taken !== owner) throw new Error(`${owner}: error code ${code} is already ${taken}'s`);
  }
  for (const [code, { status }] of Object.entries(errors)) declared.set(code, { status, owner });
}

/** The HTTP status of a code, the core's or a plugin's; undefined for a code nobody declared. */
export function errorStatus(code: string): number | undefined {
  return (ERROR_STATUS as Record<string, number>)[code] ?? declared.get(code)?.status;
}

export class BillingError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra fields merged into the body's `data` next to `status` (e.g. `params`, `details`). */
  readonly data: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, data: Record<string, unknown> = {}, status?: number) {
    super(message);
    this.name = 'BillingError';
    this.code = code;
    // an undeclared code (a plugin that forgot its declaration) is the service's fault: 500
    this.status = status ?? errorStatus(code) ?? 500;
    this.data = data;
  }
}

export function isBillingError(e: unknown): e is BillingError {
  return e instanceof BillingError;
}
