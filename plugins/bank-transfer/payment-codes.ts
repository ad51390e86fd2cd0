import { Money, type BillingDocument, type CurrencyCode } from '../../core/plugin-api.ts';
// The codes a payer scans: the EPC QR code (EPC069-12 version 2, "GiroCode") for euro invoices, and the
// Swiss QR-bill payment part (SIX Implementation Guidelines 2.x, drawn by the `swissqrbill` library, which
// also validates its data) for franc invoices to a Swiss IBAN. Both carry the amount due and the
// invoice's reference. A paid invoice (nothing due) gets neither.
import QRCode from 'qrcode';
import { SwissQRBill } from 'swissqrbill/svg';
import { compactIban, isQrIban, isSwissIban } from '../../core/plugin-api.ts';
import { invoiceRfReference, qrReference } from './references.ts';

export interface BankSettings {
  bank_account_holder: string;
  bank_iban: string;
  bank_bic: string;
  bank_qr: boolean;
  company_name: string;
  company_street: string;
  company_postcode: string;
  company_city: string;
  business_country: string;
}

export const BANK_SETTING_KEYS = [
  'bank_account_holder',
  'bank_iban',
  'bank_bic',
  'bank_qr',
  'company_name',
  'company_street',
  'company_postcode',
  'company_city',
  'business_country',
] as const satisfies readonly (keyof BankSettings)[];

/** What an invoice shows for payment by transfer. */
export interface TransferDetails {
  holder: string;
  iban: string;
  bic: string;
  /** The reference the payer quotes: the RF reference, or a QR reference for a Swiss QR-IBAN. */
  reference: string | null;
  /** A scannable code, when the invoice has something due and a code fits its currency and account. */
  code: { kind: 'epc' | 'swiss'; svg: string; payload: string } | null;
  /** For a QR-bill: what its payment part says, and its QR code alone (the PDF lays the part out itself). */
  swiss?: { qrSvg: string; currency: string; amount: string; reference: string; creditor: string[]; message: string };
}

const EPC_MAX_AMOUNT = Money.parse('999999999.99', 'EUR' as CurrencyCode);

/** The account holder: the setting, else the company name. */
export const holderOf = (s: BankSettings): string => (s.bank_account_holder || s.company_name).trim();

/** Whether the invoice still expects money (an issued invoice with an amount due). */
export function expectsMoney(doc: BillingDocument): boolean {
  if (doc.kind !== 'invoice' || doc.status === 'draft' || doc.status === 'cancelled' || doc.status === 'paid') return false;
  return Money.parse(doc.totals.due, doc.currency as CurrencyCode).isPositive();
}

/**
 * The EPC QR payload (EPC069-12 v2): service tag, version, UTF-8, SCT, BIC, name (≤ 70), IBAN,
 * `EUR<amount>`, purpose (empty), structured reference, unstructured text (empty). Lines end in LF.
 */
export function epcPayload(p: { bic: string; name: string; iban: string; amount: Money; reference: string | null }): string {
  return [
    'BCD',
    '002',
    '1',
    'SCT',
    p.bic.trim().toUpperCase(),
    p.name.slice(0, 70),
    compactIban(p.iban),
    `EUR${p.amount.toString()}`,
    '',
    p.reference ?? '',
    '',
  ].join('\n');
}

/** A QR code of `text` as SVG (error correction M, as EPC069-12 asks, with a quiet zone of four modules). */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
}

/** The Swiss QR-bill data of an invoice (the library's `Data`): creditor, amount due, reference. */
export function swissData(doc: BillingDocument, s: BankSettings, amount: Money) {
  const iban = compactIban(s.bank_iban);
  const reference = isQrIban(iban) ? qrReference(doc.id) : (invoiceRfReference(doc.number) ?? undefined);
  return {
    currency: 'CHF' as const,
    amount: amount.toNumber(),
    reference,
    creditor: {
      account: iban,
      name: holderOf(s).slice(0, 70),
      address: s.company_street.slice(0, 70),
      zip: s.company_postcode.slice(0, 16),
      city: s.company_city.slice(0, 35),
      country: (s.business_country || 'CH').toUpperCase(),
    },
    message: `${doc.number}`.slice(0, 140),
  };
}

/** The payment reference shown for `doc`: a QR reference for a Swiss QR-IBAN on a franc invoice, else its RF reference. */
export function paymentReference(doc: BillingDocument, s: BankSettings): string | null {
  if (doc.currency === 'CHF' && s.bank_iban && isQrIban(s.bank_iban)) return qrReference(doc.id);
  return invoiceRfReference(doc.number);
}

/**
 * What `doc` shows for payment by transfer (null when no IBAN is set); the QR-bill's own wording is in
 * `language`, the document's.
 */
export async function transferDetails(
  doc: BillingDocument,
  s: BankSettings,
  language: 'DE' | 'FR' | 'IT' | 'EN' = 'EN',
): Promise<TransferDetails | null> {
  if (!s.bank_iban) return null;
  const reference = paymentReference(doc, s);
  const details: TransferDetails = {
    holder: holderOf(s),
    iban: compactIban(s.bank_iban),
    bic: s.bank_bic.trim().toUpperCase(),
    reference,
    code: null,
  };
  if (!s.bank_qr || !expectsMoney(doc)) return details;
  const amount = Money.parse(doc.totals.due, doc.currency as CurrencyCode);
  if (doc.currency === 'EUR' && !amount.greaterThan(EPC_MAX_AMOUNT) && details.holder) {
    const payload = epcPayload({ bic: details.bic, name: details.holder, iban: details.iban, amount, reference });
    details.code = { kind: 'epc', payload, svg: await qrSvg(payload) };
  } else if (doc.currency === 'CHF' && isSwissIban(s.bank_iban) && s.company_street && s.company_postcode && s.company_city) {
    // the library validates the data (IBAN, reference, lengths) as it builds the bill, and throws when invalid
    const data = swissData(doc, s, amount);
    const svg = new SwissQRBill(data, { language, scissors: true, outlines: true }).toString();
    details.code = { kind: 'swiss', payload: '', svg };
    const c = data.creditor;
    details.swiss = {
      qrSvg: qrCodeOf(svg),
      currency: 'CHF',
      amount: amount.toString(),
      reference: data.reference ?? '',
      creditor: [c.account.replace(/(.{4})(?=.)/g, '$1 '), c.name, c.address, `${c.zip} ${c.city}`],
      message: data.message,
    };
  }
  return details;
}

/**
 * The Swiss QR code (with its cross) out of the library's payment part: the one nested SVG of 46 mm,
 * placed at the origin. pdfmake's SVG renderer stops drawing the library's whole payment part after the
 * receipt's first lines, so the PDF lays out the part itself around this code (the page shows the whole SVG).
 */
export function qrCodeOf(billSvg: string): string {
  const at = billSvg.indexOf('width="46mm" height="46mm"');
  const start = billSvg.lastIndexOf('<svg', at);
  const end = billSvg.indexOf('</svg>', at);
  if (at < 0 || start < 0 || end < 0) throw new Error('The QR-bill SVG has no 46 mm QR code.');
  return billSvg.slice(start, end + 6).replace(/ x="[^"]*" y="[^"]*"/, '');
}
