import type { ClientService } from './documents/clients/client-service.ts';
import type { InvoiceService } from './documents/invoice-service.ts';
import type { QuoteService } from './documents/quote-service.ts';
import type { MailService } from './mail/mail-service.ts';
import type { ReportService } from './reports/report-service.ts';
import type { CreditNoteService } from './payments/credit-note-service.ts';
import type { PaymentService } from './payments/payment-service.ts';

/**
 * The typed in-process API (contract §2): what REST, AJAX, the CLI and plugins all call, so every path
 * runs the same code. In-process calls need no authentication and run every filter and action.
 */
export interface ServiceApi {
  invoices: InvoiceService;
  quotes: QuoteService;
  clients: ClientService;
  /** Sending documents by e-mail, and their delivery log. */
  mail: MailService;
  /** Invoiced, paid and outstanding amounts per period. */
  reports: ReportService;
  /** Payments and refunds; `payments.apply` is the payment core every gateway plugin calls. */
  payments: PaymentService;
  /** Credit notes against invoices. */
  creditNotes: CreditNoteService;
}
