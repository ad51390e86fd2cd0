// EN 16931 in UBL 2.1: a Peppol BIS Billing 3.0 Invoice or CreditNote, or the same with the XRechnung
// customization. Pure: the model in, the XML text out.
import { PEPPOL_CUSTOMIZATION, PEPPOL_PROFILE, XRECHNUNG_CUSTOMIZATION, type EinvoiceModel, type EinvoiceParty } from './einvoice-model.ts';
import { el, text, XML_DECLARATION, type XmlNode } from './xml.ts';

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** VATEX codes for the categories whose reason has a code of its own (BT-121). */
export const EXEMPTION_CODE: Partial<Record<string, string>> = { AE: 'VATEX-EU-AE', G: 'VATEX-EU-G' };

/**
 * The MIME types EN 16931 lets an invoice embed (rule BR-CL-24, the code list Peppol BIS 3 and XRechnung
 * both use): a file of any other type (plain text) is left out of the e-invoice, never sent to be refused.
 */
export const EMBEDDABLE_TYPES: readonly string[] = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
];

/** A supporting document embedded in the e-invoice (BG-24): its bytes, type and name. */
export interface EmbeddedFile {
  filename: string;
  contentType: string;
  body: Buffer;
}

/**
 * The UBL document of `model`: an Invoice (type 380) or a CreditNote (type 381), with `files` embedded as
 * additional supporting documents (`cac:AdditionalDocumentReference`, BG-24) when their type is embeddable.
 */
export function ublXml(model: EinvoiceModel, files: readonly EmbeddedFile[] = []): string {
  const credit = model.kind === 'credit_note';
  const root = credit ? 'CreditNote' : 'Invoice';
  const amount = (name: string, value: string) => text(name, value, { currencyID: model.currency });
  const taxCategory = (name: string, category: string, rate: string, reason?: string) =>
    el(
      name,
      null,
      text('cbc:ID', category),
      text('cbc:Percent', rate),
      reason !== undefined && text('cbc:TaxExemptionReasonCode', EXEMPTION_CODE[category]),
      reason !== undefined && text('cbc:TaxExemptionReason', reason),
      el('cac:TaxScheme', null, text('cbc:ID', 'VAT')),
    );

  const body: XmlNode[] = [
    text('cbc:CustomizationID', model.format === 'xrechnung' ? XRECHNUNG_CUSTOMIZATION : PEPPOL_CUSTOMIZATION),
    text('cbc:ProfileID', PEPPOL_PROFILE),
    text('cbc:ID', model.number),
    text('cbc:IssueDate', model.issueDate),
    !credit && text('cbc:DueDate', model.dueDate),
    text(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', credit ? '381' : '380'),
    text('cbc:Note', model.note),
    text('cbc:DocumentCurrencyCode', model.currency),
    text('cbc:BuyerReference', model.buyerReference),
    // BG-14, after the buyer reference in both Invoice-2 and CreditNote-2
    model.period && el('cac:InvoicePeriod', null, text('cbc:StartDate', model.period.start), text('cbc:EndDate', model.period.end)),
    model.orderReference && el('cac:OrderReference', null, text('cbc:ID', model.orderReference)),
    model.preceding &&
      el(
        'cac:BillingReference',
        null,
        el('cac:InvoiceDocumentReference', null, text('cbc:ID', model.preceding.number), text('cbc:IssueDate', model.preceding.issueDate)),
      ),
    ...files
      .filter((f) => EMBEDDABLE_TYPES.includes(f.contentType))
      .map((f, i) =>
        el(
          'cac:AdditionalDocumentReference',
          null,
          // BT-122: the reference of the supporting document, unique within the invoice
          text('cbc:ID', `ATT-${i + 1}`),
          text('cbc:DocumentDescription', f.filename),
          el(
            'cac:Attachment',
            null,
            text('cbc:EmbeddedDocumentBinaryObject', f.body.toString('base64'), { mimeCode: f.contentType, filename: f.filename }),
          ),
        ),
      ),
    el('cac:AccountingSupplierParty', null, party(model.seller)),
    el('cac:AccountingCustomerParty', null, party(model.buyer)),
    model.deliveryDate && el('cac:Delivery', null, text('cbc:ActualDeliveryDate', model.deliveryDate)),
    model.payment &&
      el(
        'cac:PaymentMeans',
        null,
        text('cbc:PaymentMeansCode', '58'),
        text('cbc:PaymentID', model.payment.reference),
        el(
          'cac:PayeeFinancialAccount',
          null,
          text('cbc:ID', model.payment.iban),
          model.payment.bic && el('cac:FinancialInstitutionBranch', null, text('cbc:ID', model.payment.bic)),
        ),
      ),
    model.settlement &&
      el(
        'cac:PaymentMeans',
        null,
        text('cbc:PaymentMeansCode', '97', { name: 'Clearing between partners' }),
        text('cbc:PaymentID', model.settlement.reference),
      ),
    model.terms.trim() && el('cac:PaymentTerms', null, text('cbc:Note', model.terms)),
    model.allowances.map((a) =>
      el(
        'cac:AllowanceCharge',
        null,
        text('cbc:ChargeIndicator', 'false'),
        text('cbc:AllowanceChargeReasonCode', '95'),
        text('cbc:AllowanceChargeReason', 'Discount'),
        amount('cbc:Amount', a.amount),
        taxCategory('cac:TaxCategory', a.category, a.rate),
      ),
    ),
    el(
      'cac:TaxTotal',
      null,
      amount('cbc:TaxAmount', model.totals.tax),
      model.breakdown.map((e) =>
        el(
          'cac:TaxSubtotal',
          null,
          amount('cbc:TaxableAmount', e.basis),
          amount('cbc:TaxAmount', e.tax),
          taxCategory('cac:TaxCategory', e.category, e.rate, e.category === 'S' || e.category === 'Z' ? undefined : e.statement),
        ),
      ),
    ),
    el(
      'cac:LegalMonetaryTotal',
      null,
      amount('cbc:LineExtensionAmount', model.totals.lines),
      amount('cbc:TaxExclusiveAmount', model.totals.taxExclusive),
      amount('cbc:TaxInclusiveAmount', model.totals.taxInclusive),
      Number(model.totals.allowances) !== 0 && amount('cbc:AllowanceTotalAmount', model.totals.allowances),
      Number(model.totals.prepaid) !== 0 && amount('cbc:PrepaidAmount', model.totals.prepaid),
      amount('cbc:PayableAmount', model.totals.payable),
    ),
    model.lines.map((l) =>
      el(
        credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine',
        null,
        text('cbc:ID', l.id),
        text(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', l.quantity, { unitCode: l.unit }),
        amount('cbc:LineExtensionAmount', l.amount),
        el(
          'cac:Item',
          null,
          text('cbc:Description', l.description),
          text('cbc:Name', l.name),
          taxCategory('cac:ClassifiedTaxCategory', l.category, l.rate),
        ),
        el('cac:Price', null, amount('cbc:PriceAmount', l.price)),
      ),
    ),
  ];
  return XML_DECLARATION + el(root, { xmlns: credit ? NS.creditNote : NS.invoice, 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc }, body) + '\n';
}

function party(p: EinvoiceParty): string {
  const a = p.address;
  return el(
    'cac:Party',
    null,
    p.endpoint && text('cbc:EndpointID', p.endpoint.id, { schemeID: p.endpoint.scheme }),
    el('cac:PartyName', null, text('cbc:Name', p.name)),
    el(
      'cac:PostalAddress',
      null,
      text('cbc:StreetName', a.street),
      text('cbc:AdditionalStreetName', a.additional),
      text('cbc:CityName', a.city),
      text('cbc:PostalZone', a.postcode),
      el('cac:Country', null, text('cbc:IdentificationCode', a.country)),
    ),
    p.vat && el('cac:PartyTaxScheme', null, text('cbc:CompanyID', p.vat), el('cac:TaxScheme', null, text('cbc:ID', 'VAT'))),
    el('cac:PartyLegalEntity', null, text('cbc:RegistrationName', p.name)),
    p.contact &&
      el(
        'cac:Contact',
        null,
        text('cbc:Name', p.contact.name),
        text('cbc:Telephone', p.contact.phone),
        text('cbc:ElectronicMail', p.contact.email),
      ),
  );
}
