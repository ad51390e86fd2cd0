// A realistic one-page invoice: what the render workers warm up on, and what tests and the benchmark
// render. Every script the fonts must cover appears in it.
import type { PdfDocumentModel } from './document-model.ts';

export function sampleInvoice(overrides: Partial<PdfDocumentModel> = {}): PdfDocumentModel {
  return {
    kind: 'invoice',
    number: 'INV-0042',
    title: 'Website redesign, phase 2',
    status: 'available',
    issueDate: '2025-03-07',
    dueDate: '2025-04-06',
    company: {
      name: 'Northwind Studio GmbH',
      address: 'Torstraße 120\n10119 Berlin',
      email: 'billing@northwind.example',
      vat: 'DE123456789',
    },
    customer: {
      name: 'Ελένη Παπαδοπούλου',
      email: 'eleni@example.gr',
      country: 'GR',
      vat: 'EL123456789',
      address: 'Λεωφόρος Κηφισίας 44\n151 25 Μαρούσι',
    },
    items: [
      {
        name: 'Discovery workshop',
        description: 'Two half-day sessions with Дмитрий Иванов and Łukasz Żółć',
        quantity: '1',
        price: '1800.00',
        amount: '1800.00',
      },
      {
        name: 'UX design',
        description: 'Wireframes and high-fidelity mock-ups for 12 page templates',
        quantity: '36',
        price: '95.00',
        amount: '3420.00',
      },
      {
        name: 'Front-end development',
        description: 'Responsive templates, accessibility review',
        quantity: '52.5',
        price: '105.00',
        amount: '5512.50',
      },
      { name: 'Content migration', description: '', quantity: '1', price: '750.00', amount: '750.00' },
      {
        name: 'Hosting (12 months)',
        description: 'Managed hosting, EU region, daily backups',
        quantity: '12',
        price: '49.90',
        amount: '598.80',
      },
    ],
    totals: { subtotal: '12081.30', discount: '604.07', tax: '0.00', total: '11477.23', paid: '5000.00', credited: '0.00', due: '6477.23' },
    currency: 'EUR',
    taxTreatment: {
      category: 'reverse_charge',
      statement: 'Reverse charge: the customer accounts for the VAT (Article 196, Council Directive 2006/112/EC).',
    },
    notes: 'Thank you for your business. Please quote the invoice number with your payment.',
    terms: 'Payment within 30 days by bank transfer to IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX).',
    ...overrides,
  };
}
