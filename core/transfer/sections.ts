import type { ExportSection } from '../hooks/hook-map.ts';

/**
 * The core's own sections, in the order a restore inserts them: options before payments (a payment's
 * day is counted in the site's time zone), users and clients before what they created, documents
 * before payments. Derived tables (counts, sums per day) are not exported: the triggers that keep them
 * fill them again as the rows go in. Sessions, page tokens, idempotency keys, job runs and the outbox
 * are the running instance's, not the business's, and never travel.
 */
export const CORE_SECTIONS: readonly ExportSection[] = [
  { name: 'options', table: 'billing_options', key: ['key'] },
  // the number each kind's sequence hands out next: a restore continues exactly where the source was
  { name: 'sequences', table: 'billing_sequences', key: ['kind'] },
  // what application passwords, sessions and nonces are keyed with: the same app passwords then work
  { name: 'secrets', table: 'billing_secrets', key: ['name'], secret: true },
  {
    name: 'users',
    table: 'billing_users',
    key: ['id'],
    where: `role <> 'billing_client'`,
    secretColumns: { password_hash: null },
  },
  { name: 'clients', table: 'billing_users', key: ['id'], where: `role = 'billing_client'`, secretColumns: { password_hash: null } },
  { name: 'app_passwords', table: 'billing_app_passwords', key: ['uuid'], secret: true },
  // a quote names the invoice it became, a credit note its invoice, an invoice its quote: set last
  { name: 'quotes', table: 'billing_documents', key: ['id'], where: `kind = 'quote'`, later: ['invoice_id', 'parent_id'] },
  { name: 'invoices', table: 'billing_documents', key: ['id'], where: `kind = 'invoice'`, later: ['invoice_id', 'parent_id'] },
  {
    name: 'credit_notes',
    table: 'billing_documents',
    key: ['id'],
    where: `kind = 'credit_note'`,
    later: ['invoice_id', 'parent_id'],
  },
  // attached files, bytes and all (docs/decisions.md): a few per batch, as each may be 10 MiB
  { name: 'attachments', table: 'billing_attachments', key: ['id'], pageRows: 4 },
  { name: 'payments', table: 'billing_payments', key: ['id'], sequence: 'billing_payments_id_seq' },
  // a client's saved card or mandate is the gateway's token: it travels only with the other secrets
  { name: 'payment_methods', table: 'billing_payment_methods', key: ['id'], secret: true },
  { name: 'payment_refunds', table: 'billing_payment_refunds', key: ['id'] },
  { name: 'payment_events', table: 'billing_payment_events', key: ['key'] },
  { name: 'gateway_deliveries', table: 'billing_gateway_deliveries', key: ['id'] },
  { name: 'mail_log', table: 'billing_mail_log', key: ['id'] },
  { name: 'audit_log', table: 'billing_audit_log', key: ['id'] },
  // the site's own wording of the customer's texts
  { name: 'translations', table: 'billing_translations', key: ['locale', 'key'] },
];

/**
 * The tables no archive carries, each with why: the running instance's own state, and what the others'
 * rows rebuild. Every other table is some section's (a test holds every table of the database, with
 * every bundled plugin active, to this).
 */
export const NOT_EXPORTED: Readonly<Record<string, string>> = {
  billing_migrations: 'the schema the archive was made at: the manifest pins it',
  billing_plugins: 'the manifest lists the active plugins; a restore activates those installed here',
  billing_plugin_packages: 'installed plugins are code, not the business’s data: install them on the target first',
  billing_state: 'the shared settings revision, counted per database',
  billing_sessions: 'signed-in browsers: a restore signs everyone in afresh',
  billing_signin_failures: 'throttling of this instance’s sign-in form',
  billing_quote_tokens: 'one-use page tokens of forms open now',
  billing_idempotency: 'retried requests of the last day',
  billing_job_runs: 'when this database last ran each job',
  billing_outbox: 'work queued by the running instances (mails, deliveries): the archive is not a queue',
  billing_imports: 'CSV uploads awaiting their commit, kept a day',
  billing_document_counts: 'derived: rebuilt from the documents',
  billing_document_day_counts: 'derived: rebuilt from the documents',
  billing_document_open_due: 'derived: rebuilt from the documents',
  billing_invoice_days: 'derived: rebuilt from the documents',
  billing_payment_days: 'derived: rebuilt from the payments',
};

/**
 * The triggers that keep the derived tables (counts, sums per day) row by row, and the functions that
 * rebuild those tables from the rows. A restore switches the triggers off while its rows go in and
 * rebuilds once at the end, in its transaction: four upserts per restored document cost five times a
 * bare load (`npm run bench -- import`).
 */
export const DERIVED = {
  triggers: [
    ['billing_documents', 'billing_documents_aggregate'],
    ['billing_documents', 'billing_documents_day_count'],
    ['billing_payments', 'billing_payments_aggregate'],
    ['billing_payment_refunds', 'billing_payment_refunds_aggregate'],
  ],
  rebuild: ['billing_rebuild_document_aggregates', 'billing_rebuild_payment_days'],
} as const;

const SECTION_NAME = /^[a-z0-9_-]{1,64}(\/[a-z0-9_-]{1,64})?$/;
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Refuses a section a plugin declared wrongly (a bad name or table), before anything is read or written. */
export function checkSections(sections: readonly ExportSection[]): readonly ExportSection[] {
  const seen = new Set<string>();
  for (const s of sections) {
    if (!SECTION_NAME.test(s.name)) throw new Error(`export section "${s.name}": the name is letters, digits, _ and -, one / at most`);
    if (seen.has(s.name)) throw new Error(`export section "${s.name}" is declared twice`);
    seen.add(s.name);
    const names = [s.table, ...s.key, ...(s.later ?? []), ...Object.keys(s.secretColumns ?? {})];
    const bad = names.find((n) => !IDENTIFIER.test(n));
    if (bad !== undefined) throw new Error(`export section "${s.name}": "${bad}" is not a plain SQL name`);
    if (!s.key.length) throw new Error(`export section "${s.name}" has no key`);
  }
  return sections;
}

/** The file a section is in: `<name>.ndjson`. */
export const sectionFile = (s: Pick<ExportSection, 'name'>): string => `${s.name}.ndjson`;
