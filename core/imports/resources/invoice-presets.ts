import type { ImportField, ImportPreset } from '../types.ts';

/**
 * The invoice fields a CSV column can fill (the `generic` preset's column names), with the names other
 * files give them.
 */
export const INVOICE_FIELDS: readonly ImportField[] = [
  { name: 'number', label: 'Invoice number', synonyms: ['Invoice Number', 'Invoice #', 'Invoice No', 'Invoice No.', 'Invoice', 'No'] },
  { name: 'date', label: 'Issue date', synonyms: ['Invoice Date', 'Issue Date', 'Date Issued', 'Issued', 'Date'] },
  { name: 'due_date', label: 'Due date', synonyms: ['Due Date', 'Due', 'Payment Due'] },
  { name: 'status', label: 'Status', synonyms: ['Invoice Status', 'State'] },
  { name: 'currency', label: 'Currency', synonyms: ['Currency Code'] },
  { name: 'customer_name', label: 'Customer name', synonyms: ['Client Name', 'Customer Name', 'Client', 'Customer', 'Contact', 'Bill To'] },
  { name: 'customer_email', label: 'Customer e-mail', synonyms: ['Email', 'E-mail', 'Client Email', 'Customer Email', 'EmailID'] },
  { name: 'customer_country', label: 'Customer country', synonyms: ['Country', 'Billing Country', 'Client Country'] },
  { name: 'customer_vat_number', label: 'Customer VAT number', synonyms: ['VAT Number', 'VAT ID', 'Tax ID', 'Customer VAT'] },
  { name: 'title', label: 'Title', synonyms: ['Subject', 'Invoice Title', 'PO Number', 'Reference'] },
  { name: 'notes', label: 'Notes', synonyms: ['Memo', 'Public Notes', 'Note'] },
  { name: 'item_name', label: 'Item name', synonyms: ['Item', 'Product', 'Item Product', 'Service', 'Line Item'] },
  { name: 'item_description', label: 'Item description', synonyms: ['Description', 'Item Notes', 'Item Desc', 'Line Description'] },
  { name: 'item_quantity', label: 'Quantity', synonyms: ['Qty', 'Quantity', 'Item Quantity', 'Hours', 'Units'] },
  { name: 'item_price', label: 'Unit price', synonyms: ['Unit Price', 'Rate', 'Price', 'Item Price', 'Item Cost', 'Unit Cost', 'Cost'] },
  { name: 'item_total', label: 'Line total (checked)', synonyms: ['Line Total', 'Line Amount', 'Item Total', 'Line Subtotal'] },
  { name: 'item_taxable', label: 'Taxable', synonyms: ['Taxable'] },
  { name: 'item_tax_rate', label: 'Tax rate (%)', synonyms: ['Tax Rate', 'Tax %', 'VAT %', 'VAT Rate', 'Item Tax %'] },
  { name: 'discount_type', label: 'Discount type', synonyms: [] },
  { name: 'discount_value', label: 'Discount', synonyms: ['Discount'] },
  { name: 'total', label: 'Total (checked)', synonyms: ['Total', 'Invoice Total', 'Amount', 'Grand Total'] },
  { name: 'paid', label: 'Amount paid', synonyms: ['Paid', 'Amount Paid', 'Paid Amount', 'Paid to Date'] },
  { name: 'balance', label: 'Balance due', synonyms: ['Balance', 'Balance Due', 'Amount Due', 'Outstanding'] },
  { name: 'paid_date', label: 'Payment date', synonyms: ['Date Paid', 'Paid Date', 'Payment Date', 'Last Payment Date'] },
];

/**
 * How Invoice Ninja, FreshBooks, Wave and Zoho Invoice export invoices: their column names (as in the
 * export files those products write, see test/fixtures/csv/), mapped to ours.
 */
export const INVOICE_PRESETS: Readonly<Record<string, ImportPreset>> = {
  'invoice-ninja': {
    columns: {
      Client: 'customer_name',
      Email: 'customer_email',
      'Invoice Number': 'number',
      Amount: 'total',
      Paid: 'paid',
      'PO Number': 'title',
      Status: 'status',
      'Invoice Date': 'date',
      'Due Date': 'due_date',
      Discount: 'discount_value',
      'Public Notes': 'notes',
      'Item Product': 'item_name',
      'Item Notes': 'item_description',
      'Item Cost': 'item_price',
      'Item Quantity': 'item_quantity',
    },
  },
  freshbooks: {
    columns: {
      'Client Name': 'customer_name',
      'Invoice #': 'number',
      'Date Issued': 'date',
      'Invoice Status': 'status',
      'Date Paid': 'paid_date',
      'Item Name': 'item_name',
      'Item Description': 'item_description',
      Rate: 'item_price',
      Quantity: 'item_quantity',
      'Line Subtotal': 'item_total',
      Currency: 'currency',
    },
  },
  // Wave exports invoices as ledger transactions: a row per income account line, plus the receivable's
  // own row (the invoice's total) and payment rows; the lines are the invoice, the rest is left out
  wave: {
    columns: {
      'Invoice Number': 'number',
      'Transaction Date': 'date',
      Customer: 'customer_name',
      'Transaction Line Description': 'item_name',
      'Amount (One column)': 'item_price',
    },
    skip: [{ column: 'Account Name', values: ['Accounts Receivable', 'Cash on Hand'] }],
  },
  zoho: {
    columns: {
      'Invoice Date': 'date',
      'Invoice Number': 'number',
      'Invoice Status': 'status',
      'Customer Name': 'customer_name',
      'Due Date': 'due_date',
      'Currency Code': 'currency',
      'Item Name': 'item_name',
      'Item Desc': 'item_description',
      Quantity: 'item_quantity',
      'Item Price': 'item_price',
      'Item Total': 'item_total',
      Total: 'total',
      Balance: 'balance',
      'Last Payment Date': 'paid_date',
      Notes: 'notes',
      Subject: 'title',
    },
  },
};
