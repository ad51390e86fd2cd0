import type { Actor } from '../../core/audit/audit.ts';
import type { Database } from '../../core/db/database.ts';
import type { BillingDocument } from '../../core/documents/document.ts';
import { InvoiceService } from '../../core/documents/invoice-service.ts';
import { CreditNoteService } from '../../core/payments/credit-note-service.ts';
import { PaymentCore } from '../../core/payments/payment-core.ts';
import { PaymentService } from '../../core/payments/payment-service.ts';
import { isOffline } from '../../core/payments/payment.ts';
import type { PdfRenderer } from '../../core/pdf/pdf-renderer.ts';
import { services, type Services } from '../helpers/services.ts';
import { i18nModule } from '../../core/i18n/index.ts';
import { Translations } from '../../core/i18n/translations.ts';

export const ADMIN: Actor = Object.freeze({ id: null, name: 'test-admin' });

/** The money services on a migrated database, without HTTP (credit-note PDFs are tested over REST). */
export interface MoneyServices extends Services {
  invoices: InvoiceService;
  core: PaymentCore;
  payments: PaymentService;
  creditNotes: CreditNoteService;
}

export async function moneyServices(url: string, poolMax?: number): Promise<MoneyServices> {
  const s = await services(url, poolMax);
  // a credit note's line is worded in its invoice's language
  if (!s.options.isDeclared('site_locale')) s.options.declare('i18n', i18nModule.settings!);
  const invoices = new InvoiceService(s);
  // as if the gateway plugins A–E were active: the open method registry is the gateway runtime's in a kernel
  const core = new PaymentCore({ ...s, invoices, methods: (m) => isOffline(m) || /^gateway_[a-e]$/.test(m) });
  return {
    ...s,
    invoices,
    core,
    payments: new PaymentService({ ...s, core }),
    creditNotes: new CreditNoteService({
      ...s,
      invoices,
      pdf: undefined as unknown as PdfRenderer,
      translations: new Translations(s),
    }),
  };
}

/** An invoice of one untaxed line of `total`, issued (`available`) unless `status` says draft. */
export function invoiceOf(
  m: MoneyServices,
  total: number | string,
  status: 'draft' | 'available' = 'available',
  currency = 'USD',
): Promise<BillingDocument> {
  return m.invoices.create(
    { items: [{ name: 'Work', quantity: 1, price: total, taxable: false }], status, currency, customer_name: 'Jane Roe' },
    { actor: ADMIN, source: 'api' },
  );
}

export async function reload(m: MoneyServices, id: number): Promise<BillingDocument> {
  return (await m.invoices.find(id))!;
}

/**
 * Every invoice whose stored `paid`, `credited` or `due` differs from the sums of its own payment and
 * credit-note rows, and every payment whose refunded amount differs from its refund rows or breaks the
 * status rules: the "nothing half-written" check. Computed independently of the code under test.
 */
export async function inconsistencies(db: Database): Promise<unknown[]> {
  const invoices = await db.query(
    `select d.id, d.paid::text, d.credited::text, d.due::text,
            coalesce((select sum(amount - refunded) from billing_payments p where p.invoice_id = d.id and p.status in ('completed', 'refunded')), 0)::text as rows_paid,
            coalesce((select sum(total) from billing_documents c where c.kind = 'credit_note' and c.parent_id = d.id), 0)::text as rows_credited,
            d.total::text
       from billing_documents d where d.kind = 'invoice'`,
  );
  const bad: unknown[] = [];
  for (const r of invoices) {
    const paid = Number(r.rows_paid);
    const credited = Number(r.rows_credited);
    const due = Math.max(0, Math.round((Number(r.total) - paid - credited) * 100) / 100);
    if (Number(r.paid) !== paid || Number(r.credited) !== credited || Number(r.due) !== due) bad.push({ invoice: r });
  }
  const payments = await db.query(
    `select p.id, p.status, p.amount::text, p.refunded::text, p.currency, d.currency as invoice_currency, d.kind,
            coalesce((select sum(amount) from billing_payment_refunds r where r.payment_id = p.id), 0)::text as rows_refunded
       from billing_payments p join billing_documents d on d.id = p.invoice_id`,
  );
  for (const p of payments) {
    if (
      p.kind !== 'invoice' ||
      Number(p.refunded) !== Number(p.rows_refunded) ||
      (p.status === 'refunded') !== (Number(p.refunded) === Number(p.amount)) ||
      (p.status === 'completed' && p.currency !== p.invoice_currency)
    )
      bad.push({ payment: p });
  }
  return bad;
}
