import { BillingError, Decimal, parseXml, runBounded, type XmlElement } from '../../core/plugin-api.ts';
// What an e-invoice says, as JSON: a UBL Invoice or CreditNote, a CII CrossIndustryInvoice, or a
// Factur-X / ZUGFeRD PDF carrying one. Pure (bytes in, data out); nothing is stored. Hostile input is
// refused before anything is read from it: see core/xml/safe-xml.ts for XML, facturx-extract.ts for PDFs; and
// whatever gets past those runs in a bounded worker (read-worker.ts), so no file holds the event loop.
import { extractFacturX } from './facturx-extract.ts';
import { at, child, children, textAt } from '../../core/plugin-api.ts';
import { unreadable } from './unreadable.ts';

/** Elements whose text is an attachment's bytes: UBL's and CII's binary objects, which nothing reads. */
const BINARY_OBJECTS = new Set(['EmbeddedDocumentBinaryObject', 'AttachmentBinaryObject']);

/** An e-invoice's XML as a tree, refused as `billing_einvoice_unreadable`. */
export const parseInvoiceXml = (xml: string | Uint8Array): XmlElement => parseXml(xml, { refuse: unreadable, skipText: BINARY_OBJECTS });

/**
 * A read's bounds. A legitimate 20 MiB Factur-X reads in about a second on one core; a file that takes
 * ten, or more memory than this, is built to hurt and is refused (the worker is terminated).
 */
/** The largest file read (the route's body limit): an invoice with its attachments. */
export const READ_BODY_LIMIT = 20 * 1024 * 1024;
export const READ_TIMEOUT_MS = 10_000;
export const READ_MEMORY_MB = 256;

const UBL_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const UBL_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
const CII = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';

export interface ReadParty {
  name: string;
  vat: string;
  address: { street: string; additional: string; city: string; postcode: string; country: string };
  email: string;
}

export interface ReadEinvoice {
  /** `ubl`, `cii`, or `facturx` (a PDF carrying CII). */
  format: 'ubl' | 'cii' | 'facturx';
  type: 'invoice' | 'credit_note';
  /** The document type code (380 invoice, 381 credit note, …). */
  type_code: string;
  customization: string;
  number: string;
  issue_date: string;
  due_date: string | null;
  currency: string;
  buyer_reference: string;
  notes: string[];
  seller: ReadParty;
  buyer: ReadParty;
  lines: Array<{
    id: string;
    name: string;
    description: string;
    quantity: number | null;
    unit: string;
    price: number | null;
    net_amount: number | null;
    vat_category: string;
    vat_rate: number | null;
  }>;
  vat_breakdown: Array<{
    category: string;
    rate: number | null;
    taxable_amount: number | null;
    tax: number | null;
    exemption_reason: string;
  }>;
  totals: {
    line_total: number | null;
    allowance_total: number;
    charge_total: number;
    tax_exclusive: number | null;
    tax: number | null;
    tax_inclusive: number | null;
    prepaid: number;
    payable: number | null;
  };
  /** The amount due for payment (BT-115), also in `totals.payable`. */
  payable: number | null;
  payment: { means_code: string; iban: string; reference: string } | null;
}

/**
 * Reads an e-invoice from its bytes in a bounded worker; 400 `billing_einvoice_unreadable` for anything
 * else, including a file that exceeds the read's time or memory. With `handOver`, the bytes move to the
 * worker instead of being copied (a request body nobody reads again): `bytes` is empty afterwards.
 */
export function readEinvoice(bytes: Buffer, options: { handOver?: boolean } = {}): Promise<ReadEinvoice> {
  return runBounded<Uint8Array, ReadEinvoice>(new URL('./read-worker.ts', import.meta.url), bytes, {
    timeoutMs: READ_TIMEOUT_MS,
    maxMemoryMb: READ_MEMORY_MB,
    refuse: (hit) =>
      unreadable(
        hit === 'time'
          ? `The file is too complex to read: it took more than ${READ_TIMEOUT_MS / 1000} s.`
          : `The file is too complex to read: it needed more than ${READ_MEMORY_MB} MiB.`,
      ),
    transfer: options.handOver ? [bytes] : [],
  });
}

/** The read itself, on the calling thread: only ever called inside a bounded worker (read-worker.ts). */
export async function readEinvoiceNow(bytes: Buffer): Promise<ReadEinvoice> {
  try {
    return await read(bytes);
  } catch (e) {
    // whatever a malformed file makes a parser throw is the sender's problem, never a 500
    if (e instanceof BillingError) throw e;
    throw unreadable('The file could not be read as an e-invoice.');
  }
}

async function read(bytes: Buffer): Promise<ReadEinvoice> {
  if (bytes.subarray(0, 1024).includes('%PDF-')) {
    const xml = await extractFacturX(bytes);
    const read = fromXml(xml);
    if (read.format !== 'cii') throw unreadable('The PDF carries an XML that is not a CII invoice.');
    return { ...read, format: 'facturx' };
  }
  // decoded as it is parsed: the file is never held a second time as one string
  return fromXml(bytes);
}

function fromXml(xml: string | Uint8Array): ReadEinvoice {
  const root = parseInvoiceXml(xml);
  if ((root.name === 'Invoice' && root.ns === UBL_INVOICE) || (root.name === 'CreditNote' && root.ns === UBL_CREDIT_NOTE))
    return fromUbl(root);
  if (root.name === 'CrossIndustryInvoice' && root.ns === CII) return fromCii(root);
  throw unreadable(`The XML is not a UBL Invoice, a UBL CreditNote or a CII CrossIndustryInvoice (its root is ${root.name}).`);
}

/** An amount or quantity as a JSON number, read exactly; null when absent, unreadable when malformed. */
function num(value: string): number | null {
  if (!value) return null;
  try {
    return Decimal.parse(value, { maxDecimals: 20, maxIntegerDigits: 20, param: 'amount' }).toNumber();
  } catch {
    throw unreadable(`"${value.slice(0, 40)}" is not a number.`);
  }
}

const credit = (code: string) => ['381', '396', '532', '261', '262', '83'].includes(code);

function fromUbl(root: XmlElement): ReadEinvoice {
  const isCredit = root.name === 'CreditNote';
  const typeCode = textAt(root, isCredit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode');
  const currency = textAt(root, 'DocumentCurrencyCode');
  const taxTotals = children(root, 'TaxTotal');
  const mainTax = taxTotals.find((t) => child(t, 'TaxAmount')?.attrs.currencyID === currency) ?? taxTotals[0];
  const lmt = child(root, 'LegalMonetaryTotal');
  const payable = num(textAt(lmt, 'PayableAmount'));
  const means = child(root, 'PaymentMeans');
  return {
    format: 'ubl',
    type: isCredit || credit(typeCode) ? 'credit_note' : 'invoice',
    type_code: typeCode,
    customization: textAt(root, 'CustomizationID'),
    number: textAt(root, 'ID'),
    issue_date: textAt(root, 'IssueDate'),
    due_date: textAt(root, 'DueDate') || textAt(means, 'PaymentDueDate') || null,
    currency,
    buyer_reference: textAt(root, 'BuyerReference'),
    notes: children(root, 'Note').map((n) => n.text.trim()),
    seller: ublParty(at(root, 'AccountingSupplierParty/Party')),
    buyer: ublParty(at(root, 'AccountingCustomerParty/Party')),
    lines: children(root, isCredit ? 'CreditNoteLine' : 'InvoiceLine').map((l) => {
      const qty = child(l, isCredit ? 'CreditedQuantity' : 'InvoicedQuantity');
      const item = child(l, 'Item');
      return {
        id: textAt(l, 'ID'),
        name: textAt(item, 'Name'),
        description: textAt(item, 'Description'),
        quantity: num(qty?.text.trim() ?? ''),
        unit: qty?.attrs.unitCode ?? '',
        price: num(textAt(l, 'Price/PriceAmount')),
        net_amount: num(textAt(l, 'LineExtensionAmount')),
        vat_category: textAt(item, 'ClassifiedTaxCategory/ID'),
        vat_rate: num(textAt(item, 'ClassifiedTaxCategory/Percent')),
      };
    }),
    vat_breakdown: children(mainTax, 'TaxSubtotal').map((s) => ({
      category: textAt(s, 'TaxCategory/ID'),
      rate: num(textAt(s, 'TaxCategory/Percent')),
      taxable_amount: num(textAt(s, 'TaxableAmount')),
      tax: num(textAt(s, 'TaxAmount')),
      exemption_reason: textAt(s, 'TaxCategory/TaxExemptionReason'),
    })),
    totals: {
      line_total: num(textAt(lmt, 'LineExtensionAmount')),
      allowance_total: num(textAt(lmt, 'AllowanceTotalAmount')) ?? 0,
      charge_total: num(textAt(lmt, 'ChargeTotalAmount')) ?? 0,
      tax_exclusive: num(textAt(lmt, 'TaxExclusiveAmount')),
      tax: num(textAt(mainTax, 'TaxAmount')),
      tax_inclusive: num(textAt(lmt, 'TaxInclusiveAmount')),
      prepaid: num(textAt(lmt, 'PrepaidAmount')) ?? 0,
      payable,
    },
    payable,
    payment: means
      ? {
          means_code: textAt(means, 'PaymentMeansCode'),
          iban: textAt(means, 'PayeeFinancialAccount/ID'),
          reference: textAt(means, 'PaymentID'),
        }
      : null,
  };
}

function ublParty(p: XmlElement | null): ReadParty {
  const vat = children(p, 'PartyTaxScheme').find((s) => textAt(s, 'TaxScheme/ID').toUpperCase() === 'VAT');
  const a = child(p, 'PostalAddress');
  return {
    name: textAt(p, 'PartyLegalEntity/RegistrationName') || textAt(p, 'PartyName/Name'),
    vat: textAt(vat, 'CompanyID'),
    address: {
      street: textAt(a, 'StreetName'),
      additional: textAt(a, 'AdditionalStreetName'),
      city: textAt(a, 'CityName'),
      postcode: textAt(a, 'PostalZone'),
      country: textAt(a, 'Country/IdentificationCode'),
    },
    email: textAt(p, 'Contact/ElectronicMail'),
  };
}

/** CII dates are `YYYYMMDD` (format 102); written back as `YYYY-MM-DD`. */
function ciiDate(value: string): string {
  return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : value;
}

function fromCii(root: XmlElement): ReadEinvoice {
  const doc = child(root, 'ExchangedDocument');
  const tx = child(root, 'SupplyChainTradeTransaction');
  const agreement = child(tx, 'ApplicableHeaderTradeAgreement');
  const settlement = child(tx, 'ApplicableHeaderTradeSettlement');
  const sum = child(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = textAt(settlement, 'InvoiceCurrencyCode');
  const taxTotals = children(sum, 'TaxTotalAmount');
  const tax = taxTotals.find((t) => t.attrs.currencyID === currency) ?? taxTotals.find((t) => !t.attrs.currencyID) ?? taxTotals[0];
  const typeCode = textAt(doc, 'TypeCode');
  const payable = num(textAt(sum, 'DuePayableAmount'));
  const means = child(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  return {
    format: 'cii',
    type: credit(typeCode) ? 'credit_note' : 'invoice',
    type_code: typeCode,
    customization: textAt(root, 'ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID'),
    number: textAt(doc, 'ID'),
    issue_date: ciiDate(textAt(doc, 'IssueDateTime/DateTimeString')),
    due_date: ciiDate(textAt(settlement, 'SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString')) || null,
    currency,
    buyer_reference: textAt(agreement, 'BuyerReference'),
    notes: children(doc, 'IncludedNote').map((n) => textAt(n, 'Content')),
    seller: ciiParty(child(agreement, 'SellerTradeParty')),
    buyer: ciiParty(child(agreement, 'BuyerTradeParty')),
    lines: children(tx, 'IncludedSupplyChainTradeLineItem').map((l) => {
      const qty = at(l, 'SpecifiedLineTradeDelivery/BilledQuantity');
      const lineTax = at(l, 'SpecifiedLineTradeSettlement/ApplicableTradeTax');
      return {
        id: textAt(l, 'AssociatedDocumentLineDocument/LineID'),
        name: textAt(l, 'SpecifiedTradeProduct/Name'),
        description: textAt(l, 'SpecifiedTradeProduct/Description'),
        quantity: num(qty?.text.trim() ?? ''),
        unit: qty?.attrs.unitCode ?? '',
        price: num(textAt(l, 'SpecifiedLineTradeAgreement/NetPriceProductTradePrice/ChargeAmount')),
        net_amount: num(textAt(l, 'SpecifiedLineTradeSettlement/SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount')),
        vat_category: textAt(lineTax, 'CategoryCode'),
        vat_rate: num(textAt(lineTax, 'RateApplicablePercent')),
      };
    }),
    vat_breakdown: children(settlement, 'ApplicableTradeTax').map((t) => ({
      category: textAt(t, 'CategoryCode'),
      rate: num(textAt(t, 'RateApplicablePercent')),
      taxable_amount: num(textAt(t, 'BasisAmount')),
      tax: num(textAt(t, 'CalculatedAmount')),
      exemption_reason: textAt(t, 'ExemptionReason'),
    })),
    totals: {
      line_total: num(textAt(sum, 'LineTotalAmount')),
      allowance_total: num(textAt(sum, 'AllowanceTotalAmount')) ?? 0,
      charge_total: num(textAt(sum, 'ChargeTotalAmount')) ?? 0,
      tax_exclusive: num(textAt(sum, 'TaxBasisTotalAmount')),
      tax: num(tax?.text.trim() ?? ''),
      tax_inclusive: num(textAt(sum, 'GrandTotalAmount')),
      prepaid: num(textAt(sum, 'TotalPrepaidAmount')) ?? 0,
      payable,
    },
    payable,
    payment: means
      ? {
          means_code: textAt(means, 'TypeCode'),
          iban: textAt(means, 'PayeePartyCreditorFinancialAccount/IBANID'),
          reference: textAt(settlement, 'PaymentReference'),
        }
      : null,
  };
}

function ciiParty(p: XmlElement | null): ReadParty {
  const vat = children(p, 'SpecifiedTaxRegistration')
    .map((r) => child(r, 'ID'))
    .find((id) => id?.attrs.schemeID === 'VA');
  const a = child(p, 'PostalTradeAddress');
  return {
    name: textAt(p, 'Name'),
    vat: vat?.text.trim() ?? '',
    address: {
      street: textAt(a, 'LineOne'),
      additional: textAt(a, 'LineTwo'),
      city: textAt(a, 'CityName'),
      postcode: textAt(a, 'PostcodeCode'),
      country: textAt(a, 'CountryID'),
    },
    email: textAt(p, 'DefinedTradeContact/EmailURIUniversalCommunication/URIID') || textAt(p, 'URIUniversalCommunication/URIID'),
  };
}
