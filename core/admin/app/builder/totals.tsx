import type { Doc, Kind } from '../documents.ts';
import { money } from '../ui.tsx';
import type { Preview } from './preview.ts';

/** The draft's totals as the server previews them; an issued invoice adds what is paid, credited and due. */
export function Totals({
  preview,
  previewError,
  cur,
  doc,
  kind,
}: {
  preview: Preview | null;
  previewError: string;
  cur: string;
  doc: Doc | null;
  kind: Kind;
}) {
  return (
    <section class="billing-totals" aria-label="Totals" aria-live="polite">
      {previewError && <p class="billing-field-error">{previewError}</p>}
      <dl>
        <dt>Subtotal</dt>
        <dd data-total="subtotal">{preview ? money(preview.totals.subtotal, cur) : '—'}</dd>
        <dt>Discount</dt>
        <dd data-total="discount">{preview ? money(preview.totals.discount, cur) : '—'}</dd>
        <dt>Tax</dt>
        <dd data-total="tax">{preview ? money(preview.totals.tax, cur) : '—'}</dd>
        <dt>Total</dt>
        <dd data-total="total" class="billing-grand">
          {preview ? money(preview.totals.total, cur) : '—'}
        </dd>
        {doc && doc.status !== 'draft' && kind === 'invoice' && (
          <>
            <dt>Paid</dt>
            <dd data-total="paid">{money(doc.totals.paid, doc.currency)}</dd>
            <dt>Credited</dt>
            <dd data-total="credited">{money(doc.totals.credited, doc.currency)}</dd>
            <dt>Amount due</dt>
            <dd data-total="due">{money(doc.totals.due, doc.currency)}</dd>
          </>
        )}
      </dl>
      {preview?.tax_statement && <p class="billing-sub">{preview.tax_statement}</p>}
    </section>
  );
}
