import { useEffect, useState } from 'preact/hooks';
import { ajax, ApiError, restPage } from '../api.ts';
import { customerName, type Doc } from '../documents.ts';
import { can, money, Notice, StatusBadge, type Props } from '../ui.tsx';
import type { Payment } from '../rest-types.ts';
import { today, type Report } from './shared.ts';

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
