import { useState } from 'preact/hooks';
import { ajax } from '../api.ts';
import type { Doc } from '../documents.ts';
import { Field, money } from '../ui.tsx';

/** What the builder lends the panels under an issued invoice: its busy flag, its runner and reload. */
export interface PanelProps {
  doc: Doc;
  busy: boolean;
  run: (label: string, work: () => Promise<string | null>) => Promise<void>;
  reload: (text: string) => Promise<string>;
  errors: Record<string, string>;
}

export function PaymentPanel({ doc, busy, run, reload, errors }: PanelProps) {
  const [amount, setAmount] = useState(String(doc.totals.due));
  const [method, setMethod] = useState('bank_transfer');
  const [status, setStatus] = useState('completed');
  const [notes, setNotes] = useState('');
  return (
    <section class="billing-panel" aria-label="Record payment">
      <h2>Record a payment</h2>
      <div class="billing-grid">
        <Field id="p-amount" label={`Amount (${doc.currency})`} error={errors.amount}>
          <input id="p-amount" inputMode="decimal" value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} />
        </Field>
        <Field id="p-method" label="Method">
          <select id="p-method" value={method} onChange={(e) => setMethod((e.target as HTMLSelectElement).value)}>
            <option value="bank_transfer">Bank transfer</option>
            <option value="cheque">Cheque</option>
            <option value="cash">Cash</option>
            <option value="manual">Other (manual)</option>
          </select>
        </Field>
        <Field id="p-status" label="Status">
          <select id="p-status" value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
            <option value="completed">Received</option>
            <option value="pending">Awaited</option>
          </select>
        </Field>
        <Field id="p-notes" label="Payment notes">
          <input id="p-notes" value={notes} onInput={(e) => setNotes((e.target as HTMLInputElement).value)} />
        </Field>
      </div>
      <button
        type="button"
        class="button-primary"
        disabled={busy}
        onClick={() =>
          run('Recording the payment…', async () => {
            await ajax('billing_record_payment', { invoice_id: doc.id, amount, method, status, notes });
            return reload(`Payment of ${money(amount, doc.currency)} recorded.`);
          })
        }
      >
        Save payment
      </button>
    </section>
  );
}

export function CreditPanel({ doc, busy, run, reload, errors }: PanelProps) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  return (
    <section class="billing-panel" aria-label="Credit note">
      <h2>Issue a credit note</h2>
      <div class="billing-grid">
        <Field id="c-amount" label={`Credit amount (${doc.currency})`} error={errors.amount}>
          <input id="c-amount" inputMode="decimal" value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} />
        </Field>
        <Field id="c-reason" label="Reason" error={errors.reason}>
          <input id="c-reason" value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
        </Field>
      </div>
      <button
        type="button"
        class="button-primary"
        disabled={busy}
        onClick={() =>
          run('Issuing the credit note…', async () => {
            const r = await ajax<{ credit_note: { number: string } }>('billing_create_credit_note', { invoice_id: doc.id, amount, reason });
            return reload(`Credit note ${r.credit_note.number} issued.`);
          })
        }
      >
        Issue credit note
      </button>
    </section>
  );
}
