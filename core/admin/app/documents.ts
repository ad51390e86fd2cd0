// What the invoice and quote screens share: the kinds, their statuses, the customer's name and address, the PDF.
import { ApiError } from './api.ts';
import type { Doc } from './rest-types.ts';

export type Kind = 'invoice' | 'quote';

export type { Doc };

export const STATUSES: Record<Kind, string[]> = {
  invoice: ['draft', 'available', 'partial', 'paid', 'unpaid', 'cancelled'],
  quote: ['draft', 'available', 'accepted', 'declined', 'expired', 'cancelled'],
};

export const customerName = (d: Doc) => d.customer?.name ?? '';
export const customerEmail = (d: Doc) => d.customer?.email ?? '';

/** Opens a document's PDF (fetched with the REST nonce: a plain link would carry no credentials). */
export async function openPdf(kind: Kind, id: number): Promise<void> {
  const meta = (n: string) => document.querySelector<HTMLMetaElement>(`meta[name="${n}"]`)?.content ?? '';
  const root = meta('billing-rest-root').replace(/^https?:\/\/[^/]+/, '') || '/wp-json/';
  const res = await fetch(`${root}billing/v1/${kind}s/${id}/pdf`, {
    credentials: 'same-origin',
    headers: { 'X-WP-Nonce': meta('billing-rest-nonce') },
  });
  if (!res.ok) throw new ApiError('pdf', `The PDF could not be made (HTTP ${res.status}).`);
  const url = URL.createObjectURL(await res.blob());
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
