// EN 16931 in UN/CEFACT CII D16B (the XML of Factur-X / ZUGFeRD, profile EN 16931). Pure: the model in,
// the XML text out. Element order follows the D16B schema, which libxml2 checks in the tests.
import { EN16931_GUIDELINE, type EinvoiceModel, type EinvoiceParty } from './einvoice-model.ts';
import { EXEMPTION_CODE } from './ubl.ts';
import { el, text, XML_DECLARATION } from './xml.ts';

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

/** `2026-03-01` as CII's format 102, `20260301`. */
const date102 = (ymd: string) => ymd.replace(/-/g, '').slice(0, 8);

/** The CII document of `model`: type 380 (invoice) or 381 (credit note). */
export function ciiXml(model: EinvoiceModel): string {
  const amount = (name: string, value: string, withCurrency = false) =>
    text(`ram:${name}`, value, withCurrency ? { currencyID: model.currency } : null);
  const tradeTax = (category: string, rate: string) =>
    el(
      'ram:ApplicableTradeTax',
      null,
      text('ram:TypeCode', 'VAT'),
      text('ram:CategoryCode', category),
      text('ram:RateApplicablePercent', rate),
    );

  const lines = model.lines.map((l) =>
    el(
      'ram:IncludedSupplyChainTradeLineItem',
      null,
      el('ram:AssociatedDocumentLineDocument', null, text('ram:LineID', l.id)),
      el('ram:SpecifiedTradeProduct', null, text('ram:Name', l.name), text('ram:Description', l.description)),
      el('ram:SpecifiedLineTradeAgreement', null, el('ram:NetPriceProductTradePrice', null, amount('ChargeAmount', l.price))),
      el('ram:SpecifiedLineTradeDelivery', null, text('ram:BilledQuantity', l.quantity, { unitCode: l.unit })),
      el(
        'ram:SpecifiedLineTradeSettlement',
        null,
        tradeTax(l.category, l.rate),
        el('ram:SpecifiedTradeSettlementLineMonetarySummation', null, amount('LineTotalAmount', l.amount)),
      ),
    ),
  );

  const settlement = el(
    'ram:ApplicableHeaderTradeSettlement',
    null,
    model.payment && text('ram:PaymentReference', model.payment.reference),
    text('ram:InvoiceCurrencyCode', model.currency),
    model.payment &&
      el(
        'ram:SpecifiedTradeSettlementPaymentMeans',
        null,
        text('ram:TypeCode', '58'),
        el('ram:PayeePartyCreditorFinancialAccount', null, text('ram:IBANID', model.payment.iban)),
        model.payment.bic && el('ram:PayeeSpecifiedCreditorFinancialInstitution', null, text('ram:BICID', model.payment.bic)),
      ),
    model.breakdown.map((e) => {
      const exempt = e.category !== 'S' && e.category !== 'Z';
      return el(
        'ram:ApplicableTradeTax',
        null,
        amount('CalculatedAmount', e.tax),
        text('ram:TypeCode', 'VAT'),
        exempt && text('ram:ExemptionReason', e.statement),
        amount('BasisAmount', e.basis),
        text('ram:CategoryCode', e.category),
        exempt && text('ram:ExemptionReasonCode', EXEMPTION_CODE[e.category]),
        text('ram:RateApplicablePercent', e.rate),
      );
    }),
    // BG-14: after the VAT breakdown, before the allowances (D16B HeaderTradeSettlementType)
    model.period &&
      el(
        'ram:BillingSpecifiedPeriod',
        null,
        model.period.start && el('ram:StartDateTime', null, text('udt:DateTimeString', date102(model.period.start), { format: '102' })),
        model.period.end && el('ram:EndDateTime', null, text('udt:DateTimeString', date102(model.period.end), { format: '102' })),
      ),
    model.allowances.map((a) =>
      el(
        'ram:SpecifiedTradeAllowanceCharge',
        null,
        el('ram:ChargeIndicator', null, text('udt:Indicator', 'false')),
        amount('ActualAmount', a.amount),
        text('ram:ReasonCode', '95'),
        text('ram:Reason', 'Discount'),
        el(
          'ram:CategoryTradeTax',
          null,
          text('ram:TypeCode', 'VAT'),
          text('ram:CategoryCode', a.category),
          text('ram:RateApplicablePercent', a.rate),
        ),
      ),
    ),
    (model.terms.trim() || model.dueDate) &&
      el(
        'ram:SpecifiedTradePaymentTerms',
        null,
        text('ram:Description', model.terms.trim()),
        model.dueDate && el('ram:DueDateDateTime', null, text('udt:DateTimeString', date102(model.dueDate), { format: '102' })),
      ),
    el(
      'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
      null,
      amount('LineTotalAmount', model.totals.lines),
      Number(model.totals.allowances) !== 0 && amount('AllowanceTotalAmount', model.totals.allowances),
      amount('TaxBasisTotalAmount', model.totals.taxExclusive),
      amount('TaxTotalAmount', model.totals.tax, true),
      amount('GrandTotalAmount', model.totals.taxInclusive),
      Number(model.totals.prepaid) !== 0 && amount('TotalPrepaidAmount', model.totals.prepaid),
      amount('DuePayableAmount', model.totals.payable),
    ),
    model.preceding &&
      el(
        'ram:InvoiceReferencedDocument',
        null,
        text('ram:IssuerAssignedID', model.preceding.number),
        el('ram:FormattedIssueDateTime', null, text('qdt:DateTimeString', date102(model.preceding.issueDate), { format: '102' })),
      ),
  );

  const doc = el(
    'rsm:CrossIndustryInvoice',
    { 'xmlns:rsm': NS.rsm, 'xmlns:ram': NS.ram, 'xmlns:udt': NS.udt, 'xmlns:qdt': NS.qdt },
    el('rsm:ExchangedDocumentContext', null, el('ram:GuidelineSpecifiedDocumentContextParameter', null, text('ram:ID', EN16931_GUIDELINE))),
    el(
      'rsm:ExchangedDocument',
      null,
      text('ram:ID', model.number),
      text('ram:TypeCode', model.kind === 'credit_note' ? '381' : '380'),
      el('ram:IssueDateTime', null, text('udt:DateTimeString', date102(model.issueDate), { format: '102' })),
      model.note.trim() && el('ram:IncludedNote', null, text('ram:Content', model.note)),
    ),
    el(
      'rsm:SupplyChainTradeTransaction',
      null,
      lines,
      el(
        'ram:ApplicableHeaderTradeAgreement',
        null,
        text('ram:BuyerReference', model.buyerReference),
        party('ram:SellerTradeParty', model.seller),
        party('ram:BuyerTradeParty', model.buyer),
        model.orderReference && el('ram:BuyerOrderReferencedDocument', null, text('ram:IssuerAssignedID', model.orderReference)),
      ),
      el(
        'ram:ApplicableHeaderTradeDelivery',
        null,
        model.deliveryDate &&
          el(
            'ram:ActualDeliverySupplyChainEvent',
            null,
            el('ram:OccurrenceDateTime', null, text('udt:DateTimeString', date102(model.deliveryDate), { format: '102' })),
          ),
      ),
      settlement,
    ),
  );
  return XML_DECLARATION + doc + '\n';
}

function party(name: string, p: EinvoiceParty): string {
  const a = p.address;
  return el(
    name,
    null,
    text('ram:Name', p.name),
    p.contact &&
      el(
        'ram:DefinedTradeContact',
        null,
        text('ram:PersonName', p.contact.name),
        p.contact.phone && el('ram:TelephoneUniversalCommunication', null, text('ram:CompleteNumber', p.contact.phone)),
        p.contact.email && el('ram:EmailURIUniversalCommunication', null, text('ram:URIID', p.contact.email)),
      ),
    el(
      'ram:PostalTradeAddress',
      null,
      text('ram:PostcodeCode', a.postcode),
      text('ram:LineOne', a.street),
      text('ram:LineTwo', a.additional),
      text('ram:CityName', a.city),
      text('ram:CountryID', a.country),
    ),
    p.endpoint && el('ram:URIUniversalCommunication', null, text('ram:URIID', p.endpoint.id, { schemeID: p.endpoint.scheme })),
    p.vat && el('ram:SpecifiedTaxRegistration', null, text('ram:ID', p.vat, { schemeID: 'VA' })),
  );
}
