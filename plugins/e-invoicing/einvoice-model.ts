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
import type { ClientEinvoice } from './client-einvoice.ts';
import type { DocumentEinvoice } from './document-einvoice.ts';
import { electronicAddressProblem, VAT_EAS, type Endpoint } from './electronic-address.ts';
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
  /** The seller's own electronic address (BT-34), when not its VAT number: an EAS scheme and an id. */
  einvoice_seller_scheme: string;
  einvoice_seller_id: string;
}

export interface EinvoiceAddress {
  street: string;
  additional: string;
  city: string;
  postcode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export type { Endpoint };

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
  /** BT-10: the document's, else the client's, else see `buyerReference` below. */
  buyerReference: string;
  /** BT-13, the buyer's purchase order; empty: none. */
  orderReference: string;
  /** Free text of the document (BT-22): notes, and a credit note's reason. */
  note: string;
  /** Payment terms (BT-20). */
  terms: string;
  /** The invoice period (BG-14: BT-73 start, BT-74 end, `Y-m-d`), or null when the document has none. */
  period: { start: string | null; end: string | null } | null;
  /**
   * The date of supply (BT-72) when the document names no period: German VAT law wants one of the two
   * on every invoice (XRechnung warns, BR-DE-TMP-32), and a document without a period was delivered
   * when it was issued. Null when the period says it.
   */
  deliveryDate: string | null;
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
  /** Invoices: credit transfer to the seller's account (BG-16/BG-17), when an IBAN is set. */
  payment: { iban: string; bic: string; reference: string } | null;
  /**
   * Credit notes, where the receiver's rules require payment instructions (XRechnung, domestic German
   * Peppol): the amount is settled between the parties against the credited invoice (UNCL 4461 code 97),
   * never by the buyer paying the seller. Elsewhere a credit note carries no payment instructions.
   */
  settlement: { reference: string } | null;
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
 * - `parent` is the invoice a credit note credits; `client` the e-invoice details of the document's client;
 *   `refs` the document's own references (a credit note's: its invoice's).
 * - What each receiver requires beyond EN 16931 (docs/e-invoicing.md): Peppol (`ubl`) an electronic
 *   address in a scheme of its list for both parties, and for a German seller and buyer the German rules
 *   (as XRechnung: seller contact, payment instructions, buyer city and postcode), for a Dutch seller
 *   payment instructions and, to a Dutch buyer, the buyer's full address; XRechnung its CIUS.
 */
export function einvoiceModel(
  doc: BillingDocument,
  seller: SellerSettings,
  format: EinvoiceFormat,
  parent?: BillingDocument,
  client?: ClientEinvoice,
  refs?: DocumentEinvoice,
): EinvoiceResult {
  const missing: string[] = [];
  const invalid: Record<string, string> = {};
  const need = (value: string, field: string) => {
    if (!value.trim() && !missing.includes(field)) missing.push(field);
  };
  const xrechnung = format === 'xrechnung';
  const peppol = format === 'ubl';
  const credit = doc.kind === 'credit_note';

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

  // the buyer: name and country always; a reverse-charged buyer's VAT number (BR-AE-02)
  need(doc.customer.name, 'customer_name');
  const buyerCountry = doc.customer.country.trim().toUpperCase();
  if (!isCountry(buyerCountry)) need('', 'customer_country');
  const buyerAddress = splitAddress(doc.customer.address, buyerCountry);
  const buyerVat = doc.customer.vat.trim() && buyerCountry ? vatWithPrefix(buyerCountry, doc.customer.vat) : '';

  // the German rules: XRechnung's CIUS, and Peppol's own for a German seller invoicing a German buyer
  // (DE-R-*): the seller's contact (BR-DE-2, -5, -6, -7), payment instructions (BR-DE-1; an invoice's are
  // a credit transfer to the seller's IBAN, BR-DE-23), the buyer's city and postcode (BR-DE-8, -9)
  const german = xrechnung || (peppol && sellerCountry === 'DE' && buyerCountry === 'DE');
  // the Dutch rules of Peppol (NL-R-*): a Dutch seller's invoice with something to pay needs payment
  // instructions (NL-R-007), and to a Dutch buyer the buyer's street, city and postcode (NL-R-004)
  const dutch = peppol && sellerCountry === 'NL';
  const m = (v: string) => Money.parse(v, currency);
  const payable = credit ? m(doc.totals.total) : m(doc.totals.due);
  if (german) {
    need(seller.company_email, 'company_email');
    need(seller.einvoice_contact_phone, 'einvoice_contact_phone');
    if (!credit) need(seller.einvoice_iban, 'einvoice_iban');
    if (!buyerAddress.city || !buyerAddress.postcode) need('', 'customer_address');
  }
  if (dutch && !credit && payable.isPositive()) need(seller.einvoice_iban, 'einvoice_iban');
  if (dutch && buyerCountry === 'NL' && (!buyerAddress.street || !buyerAddress.city || !buyerAddress.postcode))
    need('', 'customer_address');
  // BT-10: the document's reference, else the client's; XRechnung to a public body routes by it (its Leitweg-ID)
  const ownReference = refs?.buyer_reference || client?.buyer_reference || '';
  if (xrechnung && client?.public_body && !ownReference) need('', 'buyer_reference');

  // electronic addresses (Peppol R010, R020 and XRechnung require both; plain EN 16931 neither): the
  // party's own when set, else its VAT number in its country's EAS scheme, else its e-mail address (EM),
  // which XRechnung and EN 16931 accept and Peppol does not (CL008): a party Peppol cannot address
  // by its VAT number needs its own
  const ownSeller = seller.einvoice_seller_scheme.trim() && seller.einvoice_seller_id.trim();
  const sellerEndpoint: Endpoint | null = ownSeller
    ? { scheme: seller.einvoice_seller_scheme.trim(), id: seller.einvoice_seller_id.trim() }
    : endpointOf(sellerCountry, sellerVat, peppol ? '' : seller.company_email);
  const buyerEndpoint = client?.einvoice_address ?? endpointOf(buyerCountry, buyerVat, peppol ? '' : doc.customer.email);
  if (ownSeller && (peppol || xrechnung)) {
    const problem = electronicAddressProblem(sellerEndpoint!);
    if (problem) invalid.einvoice_seller_id = `The seller's electronic address: ${problem}`;
  }
  if (peppol || xrechnung) {
    if (!sellerEndpoint) need('', xrechnung ? 'company_email' : 'einvoice_seller_id');
    if (!buyerEndpoint) need('', xrechnung ? 'customer_email' : 'customer_einvoice_address');
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
  if (peppol || xrechnung) {
    // Peppol R120 (XRechnung too): a line's net amount is its quantity × price within 0.02. Amounts are
    // kept at the currency's minor unit, so in a currency without cents (JPY) a price with fractions of
    // it can round further off than that; such a line cannot be written truthfully
    const off = lines.filter((l) => Decimal.from(l.quantity).times(l.price).minus(l.amount).abs().compare('0.02') > 0);
    if (off.length) {
      invalid.items = `Line ${off.map((l) => l.id).join(', ')}: quantity × price differs from the line amount in ${currency} by more than the 0.02 Peppol allows; give prices that fit the smallest unit of ${currency}.`;
    }
  }
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

  const t = doc.totals;
  const total = m(t.total);
  const model: EinvoiceModel = {
    kind: doc.kind === 'credit_note' ? 'credit_note' : 'invoice',
    format,
    number: doc.number,
    issueDate: doc.issueDate,
    dueDate: doc.kind === 'invoice' ? doc.dueDate : null,
    currency,
    buyerReference: ownReference || buyerReference(doc, parent),
    orderReference: refs?.purchase_order_reference ?? '',
    note: [doc.kind === 'credit_note' && doc.reason ? doc.reason : '', doc.notes].filter((s) => s.trim()).join('\n\n'),
    // a credit note's terms say that nothing is to be paid to the seller (BR-CO-25 wants terms or a due
    // date when the amount is positive, and a credit note's amount is what the seller owes)
    terms: credit ? creditTerms(parent) : doc.terms,
    period: doc.period.start || doc.period.end ? { start: doc.period.start, end: doc.period.end } : null,
    deliveryDate: doc.period.start || doc.period.end ? null : doc.issueDate,
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
    payment:
      !credit && seller.einvoice_iban.trim()
        ? { iban: seller.einvoice_iban.replace(/\s+/g, '').toUpperCase(), bic: seller.einvoice_bic.trim(), reference: doc.number }
        : null,
    settlement: credit && german ? { reference: parent?.number ?? doc.number } : null,
  };
  return { model, missing, invalid };
}

function creditTerms(parent: BillingDocument | undefined): string {
  const on = parent ? ` invoice ${parent.number}` : ' the credited invoice';
  return `Credit note: nothing is to be paid to the seller. Its amount reduces what is due on${on}; an amount already paid is refunded.`;
}

/**
 * BT-10 when the client has no buyer reference of its own: Peppol (R003) and XRechnung (BR-DE-15)
 * require one, so the invoice number stands in for it (a credit note gives its invoice's): the buyer can
 * always match it.
 */
function buyerReference(doc: BillingDocument, parent?: BillingDocument): string {
  return doc.kind === 'credit_note' && parent ? parent.number : doc.number;
}

/** A party without an electronic address of its own: its VAT number in its country's scheme, else `email` (EM). */
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
