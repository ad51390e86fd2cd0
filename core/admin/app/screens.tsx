import { useEffect, useRef, useState } from 'preact/hooks';
import { ajax, ApiError, restPage, type Page } from './api.ts';
import { customerName, type Doc } from './documents.tsx';
import type { SettingField } from '../wire.ts';
import { Busy, can, DataTable, Field, money, Notice, StatusBadge, StatusFilter, type Column, type Props } from './ui.tsx';

const today = () => new Date().toISOString().slice(0, 10);

interface Report {
  labels: string[];
  series: { invoiced: number[]; paid: number[]; outstanding: number[] };
  totals: { invoiced: number; paid: number; outstanding: number };
  currency: string;
}

interface Payment {
  id: number;
  invoice_id: number;
  invoice_number: string;
  reference: string;
  amount: number;
  currency: string;
  method: string;
  status: string;
  date: string;
  refunded: number;
  notes: string;
}

export function Dashboard({ props }: { props: Props }) {
  const [figures, setFigures] = useState<{
    outstanding: number;
    paid: number;
    overdue: number;
    overdueCount: number;
    currency: string;
  } | null>(null);
  const [invoices, setInvoices] = useState<Doc[] | null>(null);
  const [payments, setPayments] = useState<Payment[] | null>(null);
  const [error, setError] = useState('');
  const billing = props.caps.some((c) => c.startsWith('bill_'));
  useEffect(() => {
    if (can(props, 'bill_view_reports') && can(props, 'bill_view_invoices')) {
      const month = today().slice(0, 8) + '01';
      Promise.all([
        ajax<Report>('billing_get_report_data', { start: '2000-01-01', end: today(), group: 'month' }),
        ajax<Report>('billing_get_report_data', { start: month, end: today(), group: 'month' }),
        restPage<Doc>('/invoices', { overdue: 'true', per_page: 100 }),
      ])
        .then(([all, thisMonth, overdue]) =>
          setFigures({
            outstanding: all.totals.outstanding,
            paid: thisMonth.totals.paid,
            overdue:
              overdue.items.filter((d) => d.currency === all.currency).reduce((s, d) => s + Math.round(d.totals.due * 1000), 0) / 1000,
            overdueCount: overdue.total,
            currency: all.currency,
          }),
        )
        .catch((e: ApiError) => setError(e.message));
    }
    if (can(props, 'bill_view_invoices'))
      restPage<Doc>('/invoices', { per_page: 5 }).then(
        (p) => setInvoices(p.items),
        () => {},
      );
    if (can(props, 'bill_view_payments'))
      restPage<Payment>('/payments', { per_page: 5 }).then(
        (p) => setPayments(p.items),
        () => {},
      );
  }, []);
  if (!billing) return <p>Welcome. Your account has no access to the billing screens; your invoices and quotes reach you by e-mail.</p>;
  return (
    <div class="billing-dashboard">
      {error && <Notice kind="error">{error}</Notice>}
      {figures && (
        <div class="billing-cards">
          <div class="billing-card">
            <h2>Outstanding</h2>
            <p class="billing-figure">{money(figures.outstanding, figures.currency)}</p>
          </div>
          <div class="billing-card">
            <h2>Overdue</h2>
            <p class="billing-figure">{money(figures.overdue, figures.currency)}</p>
            <p class="billing-sub">{figures.overdueCount} invoices</p>
          </div>
          <div class="billing-card">
            <h2>Paid this month</h2>
            <p class="billing-figure">{money(figures.paid, figures.currency)}</p>
          </div>
        </div>
      )}
      <div class="billing-columns">
        {invoices && (
          <section>
            <h2>Recent invoices</h2>
            {invoices.length === 0 ? (
              <p>No invoices yet. {can(props, 'bill_create_invoice') && <a href="/wp-admin/invoice.php">Create an invoice</a>}</p>
            ) : (
              <ul class="billing-recent">
                {invoices.map((d) => (
                  <li>
                    <a href={`/wp-admin/invoice.php?id=${d.id}`}>{d.number}</a> {customerName(d)} · {money(d.totals.total, d.currency)}{' '}
                    <StatusBadge status={d.status} overdue={d.overdue} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
        {payments && (
          <section>
            <h2>Recent payments</h2>
            {payments.length === 0 ? (
              <p>No payments yet.</p>
            ) : (
              <ul class="billing-recent">
                {payments.map((p) => (
                  <li>
                    {p.reference} · <a href={`/wp-admin/invoice.php?id=${p.invoice_id}`}>invoice {p.invoice_number}</a> ·{' '}
                    {money(p.amount, p.currency)} <StatusBadge status={p.status} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
      </div>
    </div>
  );
}

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

interface Client {
  id: number;
  name: string;
  email: string;
  company: string;
  country: string;
  vat: string;
  address?: string;
  counts: { invoices: number; quotes: number };
  totals: { invoiced: number; paid: number; due: number };
}

export function Clients({ props }: { props: Props }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page<Client> | null>(null);
  const [editing, setEditing] = useState<Partial<Client> | null>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reload, setReload] = useState(0);
  useEffect(() => {
    restPage<Client>('/clients', { page, per_page: 20, search }).then(setData, (e: ApiError) =>
      setNotice({ kind: 'error', text: e.message }),
    );
  }, [page, search, reload]);
  const editable = can(props, 'bill_edit_clients');
  async function save(e: Event) {
    e.preventDefault();
    setErrors({});
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const fields: Record<string, string> = {};
    for (const k of ['name', 'email', 'company', 'country', 'vat', 'address']) {
      const value = String(f.get(k) ?? '');
      // an edit sends what changed: a field the list does not show (the address) and left empty keeps its value
      if (!editing?.id || value !== String((editing as any)[k] ?? '')) fields[k] = value;
    }
    try {
      await ajax('billing_save_client', { ...(editing?.id ? { id: editing.id } : {}), ...fields });
      setNotice({ kind: 'ok', text: `Client ${fields.name ?? editing?.name ?? ''} saved.` });
      setEditing(null);
      setReload(reload + 1);
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.params);
      setNotice({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  }
  return (
    <div>
      <div class="billing-toolbar">
        {editable && (
          <button type="button" class="button-primary" onClick={() => setEditing({})}>
            New client
          </button>
        )}
        <form
          role="search"
          class="billing-filters"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(String(new FormData(e.currentTarget as HTMLFormElement).get('search') ?? ''));
            setPage(1);
          }}
        >
          <label for="client-search">Search clients</label>
          <input id="client-search" name="search" type="search" />
          <button type="submit">Search</button>
        </form>
      </div>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {editing && (
        <form class="billing-panel" onSubmit={save} aria-label={editing.id ? `Edit ${editing.name}` : 'New client'}>
          <h2>{editing.id ? `Edit ${editing.name}` : 'New client'}</h2>
          <div class="billing-grid">
            {(
              [
                ['name', 'Name'],
                ['email', 'E-mail'],
                ['company', 'Company'],
                ['country', 'Country (2 letters)'],
                ['vat', 'VAT number'],
                ['address', 'Address'],
              ] as const
            ).map(([k, label]) => (
              <Field id={`cl-${k}`} label={label} error={errors[k]}>
                <input id={`cl-${k}`} name={k} defaultValue={String((editing as any)[k] ?? '')} type={k === 'email' ? 'email' : 'text'} />
              </Field>
            ))}
          </div>
          <button type="submit" class="button-primary">
            Save client
          </button>{' '}
          <button type="button" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
      <DataTable
        data={data}
        caption="Clients"
        empty={search ? 'No client matches this search.' : editable ? 'No clients yet. Add one with New client.' : 'No clients yet.'}
        page={page}
        onPage={setPage}
        columns={[
          {
            label: 'Name',
            cell: (c) => (
              <>
                <a href={`/wp-admin/invoices.php?client_id=${c.id}`}>{c.name}</a>
                <div class="billing-sub">{c.email}</div>
              </>
            ),
          },
          { label: 'Company', cell: (c) => c.company },
          { label: 'Country', cell: (c) => c.country },
          { label: 'Invoices', cell: (c) => c.counts.invoices },
          { label: 'Invoiced', num: true, cell: (c) => money(c.totals.invoiced, props.currency) },
          { label: 'Due', num: true, cell: (c) => money(c.totals.due, props.currency) },
          editable && {
            label: 'Actions',
            cell: (c) => (
              <button type="button" onClick={() => setEditing(c)}>
                Edit {c.name}
              </button>
            ),
          },
        ]}
      />
    </div>
  );
}

export function Reports({ props }: { props: Props }) {
  const end0 = today();
  const start0 = new Date(Date.now() - 29 * 86400_000).toISOString().slice(0, 10);
  const [range, setRange] = useState({
    start: props.query.start ?? start0,
    end: props.query.end ?? end0,
    group: props.query.group ?? 'day',
  });
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState('');
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<any>(null);
  useEffect(() => {
    setError('');
    ajax<Report>('billing_get_report_data', range).then(setReport, (e: ApiError) => setError(e.message));
  }, [range]);
  useEffect(() => {
    if (!report || !canvas.current) return;
    let live = true;
    import('./chart.ts').then(({ drawChart }) => {
      if (!live) return;
      chart.current?.destroy();
      chart.current = drawChart(canvas.current!, report);
    });
    return () => {
      live = false;
    };
  }, [report]);
  return (
    <div class="billing-reports">
      <form
        class="billing-filters"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget as HTMLFormElement);
          setRange({ start: String(f.get('start')), end: String(f.get('end')), group: String(f.get('group')) });
        }}
      >
        <label for="rep-start">From</label>
        <input id="rep-start" name="start" type="date" defaultValue={range.start} />
        <label for="rep-end">To</label>
        <input id="rep-end" name="end" type="date" defaultValue={range.end} />
        <label for="rep-group">Per</label>
        <select id="rep-group" name="group" defaultValue={range.group}>
          <option value="day">Day</option>
          <option value="week">Week</option>
          <option value="month">Month</option>
        </select>
        <button type="submit">Show report</button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
      {!report && !error && <Busy text="Loading…" />}
      <div class="billing-report-body">
        <div class="billing-chart">
          <canvas ref={canvas} role="img" aria-label="Invoiced, paid and outstanding per period" />
        </div>
        {report && (
          <table class="billing-table billing-report-totals" aria-label="Totals">
            <tbody>
              <tr>
                <th scope="row">Invoiced</th>
                <td class="num" data-total="invoiced">
                  {money(report.totals.invoiced, report.currency)}
                </td>
              </tr>
              <tr>
                <th scope="row">Paid</th>
                <td class="num" data-total="paid">
                  {money(report.totals.paid, report.currency)}
                </td>
              </tr>
              <tr>
                <th scope="row">Outstanding</th>
                <td class="num" data-total="outstanding">
                  {money(report.totals.outstanding, report.currency)}
                </td>
              </tr>
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  object_type: string | null;
  object_id: string | null;
  details: unknown;
  ip: string | null;
}

export function AuditLog(_: { props: Props }) {
  const [page, setPage] = useState(1);
  const [type, setType] = useState('');
  const [data, setData] = useState<Page<AuditEntry> | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    restPage<AuditEntry>('/audit-log', { page, per_page: 50, object_type: type }).then(setData, (e: ApiError) => setError(e.message));
  }, [page, type]);
  return (
    <div>
      <div class="billing-filters">
        <label for="audit-type">Object</label>
        <select
          id="audit-type"
          value={type}
          onChange={(e) => {
            setType((e.target as HTMLSelectElement).value);
            setPage(1);
          }}
        >
          <option value="">Everything</option>
          {['invoice', 'quote', 'payment', 'credit_note', 'option', 'plugin', 'user'].map((t) => (
            <option value={t}>{t.replace('_', ' ')}</option>
          ))}
        </select>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <DataTable
        data={data}
        error={error}
        caption="Audit log"
        empty="Nothing recorded yet."
        page={page}
        onPage={setPage}
        columns={[
          { label: 'When', cell: (a) => a.at },
          { label: 'Who', cell: (a) => a.actor },
          { label: 'What', cell: (a) => a.action },
          { label: 'Object', cell: (a) => (a.object_type ? `${a.object_type} ${a.object_id ?? ''}` : '') },
          {
            label: 'Details',
            cell: (a) => (
              <span class="billing-details">{a.details && Object.keys(a.details as object).length ? JSON.stringify(a.details) : ''}</span>
            ),
          },
        ]}
      />
    </div>
  );
}

/** The Settings screen; with `props.slug`, a plugin's options screen (one section, the plugin's capability). */
export function Settings({ props }: { props: Props & { slug?: string; description?: string } }) {
  const screen = props.slug ? { screen: props.slug } : {};
  const [sections, setSections] = useState<Array<{ id: string; title: string; fields: SettingField[] }> | null>(null);
  const [changes, setChanges] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    ajax<{ sections: typeof sections }>(props.slug ? 'billing_get_screen_options' : 'billing_get_settings', screen).then(
      (d) => setSections(d.sections),
      (e: ApiError) => setNotice({ kind: 'error', text: e.message }),
    );
  }, []);
  useEffect(() => {
    const guard = (e: BeforeUnloadEvent) => {
      if (Object.keys(changes).length) {
        e.preventDefault();
        e.returnValue = '';
      }
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [changes]);
  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setNotice(null);
    setErrors({});
    try {
      const r = await ajax<{ saved: string[]; cleared?: string[]; sections: typeof sections }>(
        props.slug ? 'billing_save_screen_options' : 'billing_save_settings',
        {
          ...screen,
          settings: JSON.stringify(changes),
        },
      );
      setSections(r.sections);
      setChanges({});
      // a changed API base empties its gateway's secrets: say which, so they are given again
      const cleared = r.cleared?.length ? ` The API base changed, so these were emptied: ${r.cleared.join(', ')}.` : '';
      setNotice({ kind: 'ok', text: r.saved.length ? `Settings saved.${cleared}` : 'Nothing to save: no setting was changed.' });
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.params);
      setNotice({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }
  const change = (f: SettingField, raw: string | boolean) => {
    let value: unknown = raw;
    if (f.input === 'number') value = raw === '' ? (f.nullable ? null : raw) : Number(raw);
    setChanges({ ...changes, [f.key]: value });
  };
  if (!sections) return notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : <Busy text="Loading…" />;
  return (
    <form class="billing-settings" onSubmit={save} noValidate>
      {props.description && <p class="billing-sub">{props.description}</p>}
      {sections.length > 1 && (
        <div role="navigation" aria-label="Sections" class="billing-section-nav">
          {sections.map((s) => (
            <a href={`#section-${s.id}`}>{s.title}</a>
          ))}
        </div>
      )}
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {sections.map((s) => (
        <fieldset id={`section-${s.id}`}>
          <legend>{s.title}</legend>
          <div class="billing-grid">
            {s.fields.map((f) => {
              const id = `opt-${f.key}`;
              const value = f.key in changes ? changes[f.key] : f.value;
              const hint = f.secret
                ? `${f.isSet ? 'Set' : 'Not set'}. Write-only: type a new value to replace it, or leave empty to keep it.`
                : f.description;
              if (f.input === 'checkbox')
                return (
                  <div class="billing-field">
                    <label class="billing-check">
                      <input
                        id={id}
                        type="checkbox"
                        checked={Boolean(value)}
                        onChange={(e) => change(f, (e.target as HTMLInputElement).checked)}
                      />{' '}
                      {f.label}
                    </label>
                    {hint && <small class="billing-hint">{hint}</small>}
                    {errors[f.key] && <small class="billing-field-error">{errors[f.key]}</small>}
                  </div>
                );
              return (
                <Field id={id} label={f.label} hint={hint} error={errors[f.key]}>
                  {f.input === 'select' ? (
                    <select id={id} value={String(value ?? '')} onChange={(e) => change(f, (e.target as HTMLSelectElement).value)}>
                      {f.choices!.map((c) => (
                        <option value={c}>{c.replace(/_/g, ' ')}</option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={id}
                      type={f.secret ? 'password' : f.input === 'number' ? 'number' : 'text'}
                      autocomplete={f.secret ? 'new-password' : 'off'}
                      step={f.input === 'number' ? 'any' : undefined}
                      value={f.secret ? String(changes[f.key] ?? '') : value === null || value === undefined ? '' : String(value)}
                      onInput={(e) => change(f, (e.target as HTMLInputElement).value)}
                    />
                  )}
                </Field>
              );
            })}
          </div>
        </fieldset>
      ))}
      <div class="billing-actions billing-sticky">
        <button type="submit" class="button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
        {Object.keys(changes).length > 0 && <span>{Object.keys(changes).length} unsaved changes</span>}
      </div>
    </form>
  );
}
