import type { ObjectKind } from '../scope/object-kind.ts';
import type { ObjectRef } from '../http/auth.ts';

/**
 * What the document engine's routes name (core/scope/object-kind.ts). Invoices and quotes share one id
 * sequence, so both answer a missing one as "No document has this id.", as their services do. A client
 * is a user with role `billing_client`, whose creator is kept on the user (`billing_users.created_by`).
 */
export const DOCUMENT_OBJECTS: readonly ObjectKind[] = [
  {
    kind: 'invoice',
    noun: 'document',
    table: 'billing_documents',
    where: { kind: 'invoice' },
    owner: 'created_by',
    keys: ['number'],
    document: true,
  },
  { kind: 'quote', noun: 'document', table: 'billing_documents', where: { kind: 'quote' }, owner: 'created_by', document: true },
  // an invoice or a quote alike: what an attachment lies through
  { kind: 'document', noun: 'document', table: 'billing_documents', owner: 'created_by', document: true },
  { kind: 'attachment', noun: 'attachment', table: 'billing_attachments', through: { kind: 'document', column: 'document_id' } },
  { kind: 'client', noun: 'client', table: 'billing_users', where: { role: 'billing_client' }, owner: 'created_by' },
];

/**
 * The client a document's body names (`client_id`, or `invoice.client_id` in a builder's field): one
 * outside the caller's scope answers as an unknown client does.
 */
export function clientOf(param = 'client_id'): ObjectRef {
  return { param, kind: 'client', missing: 'billing_rest_no_client' };
}
