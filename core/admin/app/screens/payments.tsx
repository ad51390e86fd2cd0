import { useEffect, useState } from 'preact/hooks';
import { ajax, ApiError, restPage, type Page } from '../api.ts';
import { can, DataTable, Field, money, Notice, StatusBadge, StatusFilter, type Column, type Props } from '../ui.tsx';
import type { Payment } from '../rest-types.ts';
import { today } from './shared.ts';

export function Payments({ props }: { props: Props }) {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page<Payment> | null>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [reload, setReload] = useState(0);
  const [refund, setRefund] = useState<Payment | null>(null);
  const [recording, setRecording] = useState(false);
  useEffect(() => {
    restPage<Payment>('/payments', { page, per_page: 20, status }).then(setData, (e: ApiError) =>
      setNotice({ kind: 'error', text: e.message }),
    );
  }, [page, status, reload]);
  const act = async (work: () => Promise<unknown>, text: string) => {
    try {
      await work();
      setNotice({ kind: 'ok', text });
      setRefund(null);
      setReload(reload + 1);
    } catch (e) {
      setNotice({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
  };
  const columns: Array<Column<Payment> | false> = [
    { label: 'Reference', cell: (p) => p.reference },
    { label: 'Invoice', cell: (p) => <a href={`/wp-admin/invoice.php?id=${p.invoice_id}`}>{p.invoice_number}</a> },
    { label: 'Date', cell: (p) => p.date },
    { label: 'Method', cell: (p) => p.method.replace(/_/g, ' ') },
    { label: 'Status', cell: (p) => <StatusBadge status={p.status} /> },
    { label: 'Amount', num: true, cell: (p) => money(p.amount, p.currency) },
    { label: 'Refunded', num: true, cell: (p) => (p.refunded ? money(p.refunded, p.currency) : '') },
    {
      label: 'Actions',
      cell: (p) => (
        <>
          {p.status === 'pending' && can(props, 'bill_record_payment') && (
            <button
              type="button"
              onClick={() => act(() => ajax('billing_complete_payment', { payment_id: p.id }), `${p.reference} is completed.`)}
            >
              Mark {p.reference} received
            </button>
          )}
          {p.status === 'completed' && can(props, 'bill_refund_payment') && (
            <button type="button" onClick={() => setRefund(p)}>
              Refund {p.reference}
            </button>
          )}
        </>
      ),
    },
  ];
  return (
    <div>
      <div class="billing-toolbar">
        {can(props, 'bill_record_payment') && (
          <button type="button" class="button-primary" aria-expanded={recording} onClick={() => setRecording(!recording)}>
            Record payment
          </button>
        )}
        <div class="billing-filters">
          <StatusFilter
            id="pay-status"
            statuses={['pending', 'completed', 'failed', 'refunded', 'cancelled']}
            value={status}
            onChange={(s) => {
              setStatus(s);
              setPage(1);
            }}
          />
        </div>
      </div>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {recording && (
        <RecordPaymentForm
          onCancel={() => setRecording(false)}
          onDone={(text) => {
            setRecording(false);
            setNotice({ kind: 'ok', text });
            setReload(reload + 1);
          }}
        />
      )}
      <DataTable
        data={data}
        columns={columns}
        caption="Payments"
        empty={`No payments ${status ? `with status ${status}` : 'yet'}. Record one with Record payment, or wait for a customer to pay online.`}
        page={page}
        onPage={setPage}
      />
      {refund && <RefundForm payment={refund} onDone={act} />}
    </div>
  );
}

interface InvoiceHit {
  id: number;
  number: string;
  customer: string;
  total: number;
  due: number;
  currency: string;
  status: string;
}

/** A payment for any invoice: found by its number or customer, the amount due proposed, errors next to their fields. */
function RecordPaymentForm({ onDone, onCancel }: { onDone: (text: string) => void; onCancel: () => void }) {
  const [term, setTerm] = useState('');
  const [hits, setHits] = useState<InvoiceHit[]>([]);
  const [invoice, setInvoice] = useState<InvoiceHit | null>(null);
  const [f, setF] = useState({ amount: '', method: 'bank_transfer', date: today(), transaction_id: '', notes: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => {
      ajax<InvoiceHit[]>('billing_search_invoices', { term }).then(
        (r) => setHits(r.filter((i) => i.due > 0 && i.status !== 'draft' && i.status !== 'cancelled')),
        () => setHits([]),
      );
    }, 200);
    return () => clearTimeout(t);
  }, [term]);
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value });
  async function save(e: Event) {
    e.preventDefault();
    setErrors({});
    setError('');
    if (!invoice) {
      setErrors({ invoice_id: 'Choose the invoice that was paid.' });
      return;
    }
    setBusy(true);
    try {
      const r = await ajax<{ payment: Payment }>('billing_record_payment', {
        invoice_id: invoice.id,
        status: 'completed',
        amount: f.amount,
        method: f.method,
        date: f.date || undefined,
        transaction_id: f.transaction_id || undefined,
        notes: f.notes || undefined,
      });
      onDone(`Payment ${r.payment.reference} of ${money(r.payment.amount, r.payment.currency)} recorded on ${invoice.number}.`);
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.params);
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class="billing-panel" aria-label="Record a payment" onSubmit={save} noValidate>
      <h2>Record a payment</h2>
      {error && <Notice kind="error">{error}</Notice>}
      <div class="billing-grid">
        <Field
          id="rp-invoice"
          label="Invoice"
          error={errors.invoice_id}
          hint="Type a number or a customer's name; invoices with an amount due are listed."
        >
          <input
            id="rp-invoice"
            type="search"
            autocomplete="off"
            value={term}
            onInput={(e) => setTerm((e.target as HTMLInputElement).value)}
          />
        </Field>
        <Field id="rp-choice" label="Invoice paid">
          <select
            id="rp-choice"
            value={invoice ? String(invoice.id) : ''}
            onChange={(e) => {
              const chosen = hits.find((h) => String(h.id) === (e.target as HTMLSelectElement).value) ?? null;
              setInvoice(chosen);
              if (chosen) setF({ ...f, amount: String(chosen.due) });
            }}
          >
            <option value="">{hits.length ? 'Choose an invoice…' : 'No invoice with an amount due matches'}</option>
            {hits.map((h) => (
              <option value={String(h.id)}>
                {h.number} · {h.customer} · due {money(h.due, h.currency)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="rp-amount" label={`Amount${invoice ? ` (${invoice.currency})` : ''}`} error={errors.amount}>
          <input id="rp-amount" inputMode="decimal" value={f.amount} onInput={set('amount')} />
        </Field>
        <Field id="rp-method" label="Method" error={errors.method}>
          <select id="rp-method" value={f.method} onChange={set('method')}>
            <option value="bank_transfer">Bank transfer</option>
            <option value="cheque">Cheque</option>
            <option value="cash">Cash</option>
            <option value="manual">Other (manual)</option>
          </select>
        </Field>
        <Field id="rp-date" label="Date received" error={errors.date}>
          <input id="rp-date" type="date" value={f.date} onInput={set('date')} />
        </Field>
        <Field
          id="rp-ref"
          label="Bank reference"
          error={errors.transaction_id}
          hint="The bank's or cheque's reference; recording it twice on one invoice records once."
        >
          <input id="rp-ref" value={f.transaction_id} onInput={set('transaction_id')} />
        </Field>
      </div>
      <button type="submit" class="button-primary" disabled={busy}>
        {busy ? 'Recording…' : 'Save payment'}
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

function RefundForm({ payment, onDone }: { payment: Payment; onDone: (w: () => Promise<unknown>, text: string) => void }) {
  const [amount, setAmount] = useState(String(Math.round((payment.amount - payment.refunded) * 1000) / 1000));
  const [reason, setReason] = useState('');
  return (
    <form
      class="billing-panel"
      aria-label={`Refund ${payment.reference}`}
      onSubmit={(e) => {
        e.preventDefault();
        onDone(
          () => ajax('billing_refund_payment', { payment_id: payment.id, amount, reason }),
          `Refund of ${money(amount, payment.currency)} recorded.`,
        );
      }}
    >
      <h2>Refund {payment.reference}</h2>
      <Field id="r-amount" label={`Refund amount (${payment.currency})`}>
        <input id="r-amount" inputMode="decimal" value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} />
      </Field>
      <Field id="r-reason" label="Reason">
        <input id="r-reason" required value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
      </Field>
      <button type="submit" class="button-primary">
        Refund
      </button>
    </form>
  );
}
