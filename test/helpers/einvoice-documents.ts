// Documents for the e-invoice tests without a database: the same computation the document service does
// (tax treatment, totals per rate group, breakdown), so the mappings can be checked on thousands.
import type { BillingDocument, DocumentItem, ServicePeriod } from '../../core/documents/document.ts';
import { computeTotals, Decimal, Money, type CurrencyCode } from '../../core/money/index.ts';
import { creditParts, taxBreakdown, taxTreatment } from '../../core/tax/index.ts';
import type { SellerSettings } from '../../plugins/e-invoicing/einvoice-model.ts';

export const SELLER: SellerSettings = {
  company_name: 'Lieferant GmbH',
  company_email: 'billing@lieferant.test',
  company_vat_number: 'DE123456789',
  company_street: 'Hauptstraße 1',
  company_city: 'Berlin',
  company_postcode: '10115',
  business_country: 'DE',
  einvoice_iban: 'DE02120300000000202051',
  einvoice_bic: 'BYLADEM1001',
  einvoice_contact_name: 'Erika Mustermann',
  einvoice_contact_phone: '+49 30 1234567',
  einvoice_seller_scheme: '',
  einvoice_seller_id: '',
};

/** The seller as site options, for the tests that run the service: SELLER, its VAT rate and exemption statement. */
export const SELLER_OPTIONS = {
  ...SELLER,
  tax_rate: 19,
  tax_exempt_items_statement: 'Disbursement paid in the name and for the account of the customer.',
} as const;

export interface ItemSpec {
  name: string;
  description?: string;
  quantity: string;
  price: string;
  taxable: boolean;
  tax_rate?: string;
}

export interface DocSpec {
  currency: CurrencyCode;
  taxRate: string;
  customer: { name: string; country: string; vat: string; address: string; email: string };
  items: ItemSpec[];
  discount: { type: 'percent' | 'fixed'; value: string } | null;
  exemptItemsStatement: string;
  /** Option tax_exempt_statement: makes the whole document exempt. */
  exemptStatement: string;
  paidShare?: number;
  notes?: string;
  terms?: string;
  /** The service period billed (BG-14); none when omitted. */
  period?: ServicePeriod;
  /** The seller (default SELLER): its country decides the tax treatment. */
  seller?: SellerSettings;
}

/** An issued invoice as the document service would have stored it. */
export function invoiceOf(spec: DocSpec, id = 1): BillingDocument {
  const treatment = taxTreatment({
    taxRate: spec.taxRate,
    businessCountry: (spec.seller ?? SELLER).business_country,
    taxExemptStatement: spec.exemptStatement,
    customerCountry: spec.customer.country,
    customerVat: spec.customer.vat,
  });
  const standard = treatment.category === 'standard';
  const totals = computeTotals({
    currency: spec.currency,
    items: spec.items.map((i) => ({
      quantity: i.quantity,
      price: i.price,
      taxable: i.taxable,
      taxRate: standard ? (i.tax_rate ?? null) : null,
    })),
    discount: spec.discount,
    taxRate: treatment.rate,
  });
  const paid = totals.total.percent(Math.round((spec.paidShare ?? 0) * 100));
  const items: DocumentItem[] = spec.items.map((i, n) => ({
    name: i.name,
    description: i.description ?? '',
    quantity: Decimal.from(i.quantity).toString(),
    price: Decimal.from(i.price).toString(),
    amount: totals.lines[n]!.amount.toString(),
    taxable: i.taxable,
    ...(i.tax_rate !== undefined ? { tax_rate: Decimal.from(i.tax_rate).toString() } : {}),
  }));
  return {
    id,
    kind: 'invoice',
    number: `INV-${String(id).padStart(4, '0')}`,
    status: 'available',
    trashed: false,
    title: '',
    currency: spec.currency,
    issueDate: '2026-03-01',
    dueDate: '2026-03-31',
    expiryDate: null,
    clientId: null,
    customer: { ...spec.customer, company: '' },
    items,
    discount: spec.discount,
    tax: { category: treatment.category, statement: treatment.statement, rate: String(treatment.rate) },
    taxBreakdown: taxBreakdown({ treatment, groups: totals.taxGroups, exemptItemsStatement: spec.exemptItemsStatement }),
    totals: {
      subtotal: totals.subtotal.toString(),
      discount: totals.discount.toString(),
      tax: totals.tax.toString(),
      total: totals.total.toString(),
      paid: paid.toString(),
      credited: '0',
      due: totals.total.minus(paid).toString(),
    },
    notes: spec.notes ?? '',
    terms: spec.terms ?? '',
    viewed: { count: 0, first: null, last: null },
    sentAt: null,
    accepted: null,
    declined: null,
    invoiceId: null,
    parentId: null,
    reason: null,
    period: spec.period ?? { start: null, end: null },
    schedule: null,
    locale: null,
    createdAt: new Date('2026-03-01T00:00:00Z'),
    updatedAt: new Date('2026-03-01T00:00:00Z'),
  };
}

/** A credit note of `share` (0–1] of the invoice's total, as the credit note service makes it. */
export function creditNoteOf(invoice: BillingDocument, share: number, id = 2): BillingDocument {
  const c = invoice.currency as CurrencyCode;
  const total = Money.parse(invoice.totals.total, c);
  let amount = total.percent(Math.max(1, Math.round(share * 100)));
  if (!amount.isPositive()) amount = total;
  const parts = creditParts(amount, invoice.taxBreakdown);
  const net = Money.sum(
    parts.map((p) => p.net),
    c,
  );
  const tax = Money.sum(
    parts.map((p) => p.tax),
    c,
  );
  return {
    ...invoice,
    id,
    kind: 'credit_note',
    number: `CN-${String(id).padStart(4, '0')}`,
    status: 'issued',
    dueDate: null,
    items: parts.map((p) => ({
      name: `Credit on invoice ${invoice.number}`,
      description: 'Returned goods',
      quantity: '1',
      price: p.net.toString(),
      amount: p.net.toString(),
      taxable: p.entry.category === 'S' || p.entry.category === 'Z' || p.tax.isPositive(),
      ...((p.entry.category === 'S' || p.entry.category === 'Z') && p.entry.rate !== invoice.tax.rate ? { tax_rate: p.entry.rate } : {}),
    })),
    discount: null,
    taxBreakdown: parts.map((p) => p.entry),
    totals: { subtotal: net.toString(), discount: '0', tax: tax.toString(), total: amount.toString(), paid: '0', credited: '0', due: '0' },
    parentId: invoice.id,
    reason: 'Returned goods',
  };
}
