import {
  Decimal,
  DEFAULT_UNIT,
  isCurrency,
  minorUnits,
  Money,
  isCountry,
  normalizeVatNumber,
  vatCategory,
  type BillingDocument,
  type CurrencyCode,
  type TaxBreakdownEntry,
  type VatCategoryCode,
} from '../../core/plugin-api.ts';
// The document as EN 16931 sees it: one pure function from an invoice or a credit note (and the seller's
// options) to the semantic model every syntax (UBL, CII) is written from, plus the list of everything
// that is missing for the result to be valid. No database, no clock.

/** The four documents of docs/e-invoicing.md: they differ in syntax and in what their rules require. */
export type EinvoiceFormat = 'ubl' | 'cii' | 'facturx' | 'xrechnung';

/** The seller's options (core) and the plugin's settings that e-invoices use. */
export interface SellerSettings {
  company_name: string;
  company_email: string;
  company_vat_number: string;
  company_street: string;
  company_city: string;
  company_postcode: string;
  business_country: string;
  einvoice_iban: string;
  einvoice_bic: string;
  einvoice_contact_name: string;
  einvoice_contact_phone: string;
}

export interface EinvoiceAddress {
  street: string;
  additional: string;
  city: string;
  postcode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** An electronic address (BT-34 / BT-49): an EAS scheme and an identifier in it. */
export interface Endpoint {
  scheme: string;
  id: string;
}

export interface EinvoiceParty {
  name: string;
  /** Where the party receives e-invoices; Peppol and XRechnung require one for both parties. */
  endpoint: Endpoint | null;
  /** With its country prefix; empty when none. */
  vat: string;
  address: EinvoiceAddress;
  contact: { name: string; phone: string; email: string } | null;
}

export interface EinvoiceLine {
  id: string;
  name: string;
  description: string;
  /** Exact decimal text, as stored. */
  quantity: string;
  /** The unit the quantity counts (BT-130): a UN/ECE Recommendation 20 code, C62 ("one") when the line names none. */
  unit: string;
  price: string;
  /** The line net amount (BT-131): quantity × price at the minor unit. */
  amount: string;
  category: VatCategoryCode;
  /** Percent, exact text. */
  rate: string;
}

/** The document level allowance of one category and rate: that group's share of the discount (BG-20). */
export interface EinvoiceAllowance {
  amount: string;
  category: VatCategoryCode;
  rate: string;
}

export interface EinvoiceModel {
  kind: 'invoice' | 'credit_note';
  format: EinvoiceFormat;
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: CurrencyCode;
  /** BT-10. See `buyerReference` below for where it comes from. */
  buyerReference: string;
  /** Free text of the document (BT-22): notes, and a credit note's reason. */
  note: string;
  /** Payment terms (BT-20). */
  terms: string;
  /** The invoice period (BG-14: BT-73 start, BT-74 end, `Y-m-d`), or null when the document has none. */
  period: { start: string | null; end: string | null } | null;
  /** Credit notes: the invoice credited (BG-3). */
  preceding: { number: string; issueDate: string } | null;
  seller: EinvoiceParty;
  buyer: EinvoiceParty;
  lines: EinvoiceLine[];
  allowances: EinvoiceAllowance[];
  breakdown: TaxBreakdownEntry[];
  totals: {
    lines: string;
    allowances: string;
    taxExclusive: string;
    tax: string;
    taxInclusive: string;
    prepaid: string;
    payable: string;
  };
  /** Credit transfer to the seller's account (BG-16/BG-17), when an IBAN is set. */
  payment: { iban: string; bic: string; reference: string } | null;
}

export interface EinvoiceResult {
  model: EinvoiceModel;
  /** Every field that is missing, by the name a user sets it under (an option or a document field). */
  missing: string[];
  /** Fields that are present but cannot be written validly, with why. */
  invalid: Record<string, string>;
}

/** Profile identifiers written into the documents (BT-24 and the Peppol profile). */
export const PEPPOL_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const XRECHNUNG_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
export const PEPPOL_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
export const EN16931_GUIDELINE = 'urn:cen.eu:en16931:2017';

/**
 * Maps a document onto the EN 16931 model and lists what is missing for `format`. Pure.
 * - Amounts are the document's stored, exact amounts: the XML says exactly what the representation says
 *   (subtotal = Σ line net amounts, discount = Σ allowances, tax per category and rate, total). What was
 *   already settled (payments and credit notes) is the prepaid amount, so the payable amount is `due`.
 * - `parent` is the invoice a credit note credits.
 */
export function einvoiceModel(
  doc: BillingDocument,
  seller: SellerSettings,
  format: EinvoiceFormat,
  parent?: BillingDocument,
): EinvoiceResult {
  const missing: string[] = [];
  const invalid: Record<string, string> = {};
  const need = (value: string, field: string) => {
    if (!value.trim() && !missing.includes(field)) missing.push(field);
  };
  const xrechnung = format === 'xrechnung';

  const currency = (isCurrency(doc.currency) ? doc.currency : 'EUR') as CurrencyCode;
  if (!isCurrency(doc.currency) || minorUnits(currency) > 2) {
    // EN 16931 allows at most two decimals in every amount (BR-DEC-*)
    invalid.currency = `${doc.currency} amounts have ${minorUnits(currency)} decimals; EN 16931 allows at most 2.`;
  }

  // the seller
  need(seller.company_name, 'company_name');
  need(seller.company_vat_number, 'company_vat_number');
  need(seller.company_street, 'company_street');
  need(seller.company_city, 'company_city');
  need(seller.company_postcode, 'company_postcode');
  const sellerCountry = seller.business_country.trim().toUpperCase();
  if (!isCountry(sellerCountry)) need('', 'business_country');
  const sellerVat = sellerCountry && seller.company_vat_number.trim() ? vatWithPrefix(sellerCountry, seller.company_vat_number) : '';
  if (xrechnung) {
    // XRechnung's seller contact (BR-DE-2, -5, -6, -7) and payment instructions (BR-DE-1, -23)
    need(seller.company_email, 'company_email');
    need(seller.einvoice_contact_phone, 'einvoice_contact_phone');
    need(seller.einvoice_iban, 'einvoice_iban');
  }

  // the buyer: name and country always; a reverse-charged buyer's VAT number (BR-AE-02)
  need(doc.customer.name, 'customer_name');
  const buyerCountry = doc.customer.country.trim().toUpperCase();
  if (!isCountry(buyerCountry)) need('', 'customer_country');
  const buyerAddress = splitAddress(doc.customer.address, buyerCountry);
  if (xrechnung && (!buyerAddress.city || !buyerAddress.postcode)) need('', 'customer_address');
  const buyerVat = doc.customer.vat.trim() && buyerCountry ? vatWithPrefix(buyerCountry, doc.customer.vat) : '';

  // electronic addresses: the VAT number in its country's EAS scheme, else the e-mail address (EM);
  // Peppol (R010, R020) and XRechnung 3.0 require both, plain EN 16931 (CII, Factur-X) neither
  const sellerEndpoint = endpointOf(sellerCountry, sellerVat, seller.company_email);
  const buyerEndpoint = endpointOf(buyerCountry, buyerVat, doc.customer.email);
  if (format === 'ubl' || xrechnung) {
    if (!sellerEndpoint) need('', 'company_email');
    if (!buyerEndpoint) need('', 'customer_email');
  }

  // lines and their categories, as the breakdown grouped them
  const standard = doc.tax.category === 'standard';
  const lines: EinvoiceLine[] = doc.items.map((item, i) => {
    const rate = standard && item.taxable ? Decimal.from(item.tax_rate ?? doc.tax.rate) : Decimal.ZERO;
    const category = vatCategory(doc.tax.category, item.taxable, rate);
    return {
      id: String(i + 1),
      name: item.name,
      description: item.description,
      quantity: item.quantity,
      unit: item.unit ?? DEFAULT_UNIT,
      price: item.price,
      amount: item.amount,
      category,
      rate: category === 'S' ? rate.toString() : '0',
    };
  });
  const breakdown = doc.taxBreakdown;
  if (breakdown.some((e) => e.category === 'AE')) need(buyerVat, 'customer_vat_number');
  for (const e of breakdown) {
    // exempt, reverse-charged and exported groups need their reason (BR-E-10, BR-AE-10, BR-G-10)
    if (e.category === 'E' && !e.statement) need('', doc.tax.category === 'exempt' ? 'tax_exempt_statement' : 'tax_exempt_items_statement');
    if ((e.category === 'AE' || e.category === 'G') && !e.statement) need('', 'tax_statement');
  }
  const allowances = breakdown
    .filter((e) => Number(e.discount) !== 0)
    .map((e) => ({ amount: e.discount, category: e.category, rate: e.rate }));

  const m = (v: string) => Money.parse(v, currency);
  const t = doc.totals;
  const total = m(t.total);
  const payable = doc.kind === 'credit_note' ? total : m(t.due);
  const model: EinvoiceModel = {
    kind: doc.kind === 'credit_note' ? 'credit_note' : 'invoice',
    format,
    number: doc.number,
    issueDate: doc.issueDate,
    dueDate: doc.kind === 'invoice' ? doc.dueDate : null,
    currency,
    buyerReference: buyerReference(doc, parent),
    note: [doc.kind === 'credit_note' && doc.reason ? doc.reason : '', doc.notes].filter((s) => s.trim()).join('\n\n'),
    terms: doc.kind === 'credit_note' ? `Credit on invoice ${parent?.number ?? ''}`.trim() : doc.terms,
    period: doc.period.start || doc.period.end ? { start: doc.period.start, end: doc.period.end } : null,
    preceding: doc.kind === 'credit_note' && parent ? { number: parent.number, issueDate: parent.issueDate } : null,
    seller: {
      name: seller.company_name.trim(),
      endpoint: sellerEndpoint,
      vat: sellerVat,
      address: {
        street: seller.company_street.trim(),
        additional: '',
        city: seller.company_city.trim(),
        postcode: seller.company_postcode.trim(),
        country: sellerCountry,
      },
      contact:
        seller.company_email.trim() || seller.einvoice_contact_phone.trim()
          ? {
              name: seller.einvoice_contact_name.trim() || seller.company_name.trim(),
              phone: seller.einvoice_contact_phone.trim(),
              email: seller.company_email.trim(),
            }
          : null,
    },
    buyer: {
      name: (doc.customer.company || doc.customer.name).trim(),
      endpoint: buyerEndpoint,
      vat: buyerVat,
      address: { ...buyerAddress, country: buyerCountry },
      contact: doc.customer.email ? { name: doc.customer.name.trim(), phone: '', email: doc.customer.email } : null,
    },
    lines,
    allowances,
    breakdown,
    totals: {
      lines: t.subtotal,
      allowances: t.discount,
      taxExclusive: m(t.subtotal).minus(m(t.discount)).toString(),
      tax: t.tax,
      taxInclusive: t.total,
      prepaid: total.minus(payable).toString(),
      payable: payable.toString(),
    },
    payment: seller.einvoice_iban.trim()
      ? { iban: seller.einvoice_iban.replace(/\s+/g, '').toUpperCase(), bic: seller.einvoice_bic.trim(), reference: doc.number }
      : null,
  };
  return { model, missing, invalid };
}

/**
 * BT-10, the buyer's reference: Peppol (R003) and XRechnung (BR-DE-15) require one. The service keeps no
 * buyer reference per document yet, so the invoice number stands in for it (a credit note gives its
 * invoice's): the buyer can always match it. A Leitweg-ID for German public buyers needs a document
 * field of its own.
 */
function buyerReference(doc: BillingDocument, parent?: BillingDocument): string {
  return doc.kind === 'credit_note' && parent ? parent.number : doc.number;
}

/**
 * EAS codes (CEF code list) of the VAT numbers of the countries whose scheme is listed, as Peppol
 * participants are commonly registered. A party registered under another identifier (a GLN, a national
 * company number) needs a field of its own, which the service does not have yet.
 */
const VAT_EAS: Record<string, string> = {
  AT: '9914',
  BE: '9925',
  BG: '9926',
  CH: '9927',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  ES: '9920',
  FI: '0213',
  FR: '9957',
  GB: '9932',
  GR: '9933',
  HR: '9934',
  HU: '9910',
  IE: '9935',
  IT: '0211',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  SI: '9949',
  SK: '9950',
};

function endpointOf(country: string, vat: string, email: string): Endpoint | null {
  const scheme = VAT_EAS[country];
  if (scheme && vat) return { scheme, id: vat };
  return email.trim() ? { scheme: 'EM', id: email.trim() } : null;
}

/** A VAT number with its country prefix (`DE123456789`; Greece `EL…`), normalised when its format is known. */
function vatWithPrefix(country: string, vat: string): string {
  const normalised = normalizeVatNumber(country, vat);
  if (normalised) return normalised;
  const compact = vat.replace(/[\s.-]/g, '').toUpperCase();
  return /^[A-Z]{2}/.test(compact) ? compact : `${country === 'GR' ? 'EL' : country}${compact}`;
}

/**
 * The customer's address is one free text (a client record's `address`). Read as: the first line the
 * street, the second (of three or more) more street, and the last line `postcode city` (or `city
 * postcode`, as in the United Kingdom) when it holds something like a postcode; otherwise the last line
 * is the city and the postcode stays unknown.
 */
export function splitAddress(text: string, country: string): Omit<EinvoiceAddress, 'country'> {
  const lines = text
    .split(/\r?\n|,\s*(?=\S)/)
    .map((l) => l.trim())
    .filter(Boolean)
    .filter((l) => !isCountryLine(l, country));
  const empty = { street: '', additional: '', city: '', postcode: '' };
  if (!lines.length) return empty;
  const last = lines.length > 1 ? lines[lines.length - 1]! : '';
  const street = lines[0]!;
  const additional = lines.length > 2 ? lines.slice(1, -1).join(', ') : '';
  const before = /^((?:[A-Z]{1,2}-)?(?:\d{2}-\d{3}|\d{3,5}(?:[ -]?[A-Z]{2}|-\d{3,4})?))\s+(\D.*)$/i.exec(last);
  if (before) return { street, additional, postcode: before[1]!, city: before[2]! };
  const after = /^(.*\D)\s+([A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}|\d{4,6})$/i.exec(last);
  if (after) return { street, additional, city: after[1]!.replace(/,$/, ''), postcode: after[2]! };
  return { ...empty, street, additional, city: last };
}

function isCountryLine(line: string, country: string): boolean {
  return line.toUpperCase() === country;
}
