// What the e-invoicing plugin adds to the admin app, as data: the download links on an issued
// invoice's screen (read by the core builder through `billing_admin_document_links`) and the reader
// screen, which posts a received file to POST /einvoices/read and shows what it says.
import { filter, ISSUED_INVOICE_STATUSES, uploadScreen, type DocumentLink, type ResourceColumn } from '../../core/plugin-api.ts';

export const EINVOICE_LINKS: DocumentLink[] = [
  { label: 'Factur-X (PDF)', path: '/invoices/{id}/facturx', statuses: ISSUED_INVOICE_STATUSES },
  { label: 'Peppol UBL (XML)', path: '/invoices/{id}/ubl', statuses: ISSUED_INVOICE_STATUSES },
  { label: 'XRechnung (XML)', path: '/invoices/{id}/xrechnung', statuses: ISSUED_INVOICE_STATUSES },
  { label: 'CII (XML)', path: '/invoices/{id}/cii', statuses: ISSUED_INVOICE_STATUSES },
];

export const documentLinks = filter(
  'billing_admin_document_links',
  () => async (links, kind) => (kind === 'invoice' ? [...links, ...EINVOICE_LINKS] : links),
);

const party = (who: 'seller' | 'buyer'): ResourceColumn[] => [
  { key: `${who}.name`, label: 'Name' },
  { key: `${who}.vat`, label: 'VAT number' },
  { key: `${who}.address.street`, label: 'Street' },
  { key: `${who}.address.postcode`, label: 'Postcode' },
  { key: `${who}.address.city`, label: 'City' },
  { key: `${who}.address.country`, label: 'Country' },
  { key: `${who}.email`, label: 'E-mail' },
];

export const readerScreen = uploadScreen({
  slug: 'einvoice-reader.php',
  title: 'Read an e-invoice',
  capability: 'bill_view_invoices',
  order: 18,
  description: 'Open a UBL, XRechnung, CII or Factur-X file you received to see what it says. Nothing is stored.',
  route: '/einvoices/read',
  label: 'E-invoice file (XML or Factur-X PDF)',
  accept: '.xml,.pdf,application/xml,text/xml,application/pdf',
  types: { '.xml': 'application/xml', '.pdf': 'application/pdf' },
  submit: 'Read file',
  heading: 'E-invoice {number}',
  sections: [
    {
      title: 'Document',
      facts: [
        { key: 'format', label: 'Format' },
        { key: 'type', label: 'Type' },
        { key: 'number', label: 'Number' },
        { key: 'issue_date', label: 'Issued' },
        { key: 'due_date', label: 'Due' },
        { key: 'currency', label: 'Currency' },
        { key: 'buyer_reference', label: 'Buyer reference' },
      ],
    },
    { title: 'Seller', facts: party('seller') },
    { title: 'Buyer', facts: party('buyer') },
    {
      title: 'Lines',
      table: {
        key: 'lines',
        columns: [
          { key: 'id', label: 'Line' },
          { key: 'name', label: 'Item' },
          { key: 'quantity', label: 'Quantity' },
          { key: 'unit', label: 'Unit' },
          { key: 'price', label: 'Price', format: 'money' },
          { key: 'vat_category', label: 'VAT category' },
          { key: 'vat_rate', label: 'VAT %' },
          { key: 'net_amount', label: 'Net', format: 'money' },
        ],
      },
    },
    {
      title: 'VAT',
      table: {
        key: 'vat_breakdown',
        columns: [
          { key: 'category', label: 'Category' },
          { key: 'rate', label: 'Rate %' },
          { key: 'taxable_amount', label: 'Taxable', format: 'money' },
          { key: 'tax', label: 'Tax', format: 'money' },
          { key: 'exemption_reason', label: 'Exemption reason' },
        ],
      },
    },
    {
      title: 'Totals',
      facts: [
        { key: 'totals.line_total', label: 'Lines', format: 'money' },
        { key: 'totals.allowance_total', label: 'Allowances', format: 'money' },
        { key: 'totals.charge_total', label: 'Charges', format: 'money' },
        { key: 'totals.tax_exclusive', label: 'Without VAT', format: 'money' },
        { key: 'totals.tax', label: 'VAT', format: 'money' },
        { key: 'totals.tax_inclusive', label: 'With VAT', format: 'money' },
        { key: 'totals.prepaid', label: 'Paid already', format: 'money' },
        { key: 'totals.payable', label: 'Amount due', format: 'money' },
      ],
    },
  ],
});
