// What the invoice and quote screens share: the kinds, their statuses, the customer's name and address, the PDF.
import { restFile } from './api.ts';
import type { Doc } from './rest-types.ts';

export type Kind = 'invoice' | 'quote';

export type { Doc };

export const STATUSES: Record<Kind, string[]> = {
  invoice: ['draft', 'available', 'partial', 'paid', 'unpaid', 'cancelled'],
  quote: ['draft', 'available', 'accepted', 'declined', 'expired', 'cancelled'],
};

export const customerName = (d: Doc) => d.customer?.name ?? '';
export const customerEmail = (d: Doc) => d.customer?.email ?? '';

/** Opens a document's PDF in a new tab. */
export async function openPdf(kind: Kind, id: number): Promise<void> {
  const { blob } = await restFile(`/${kind}s/${id}/pdf`);
  const url = URL.createObjectURL(blob);
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
