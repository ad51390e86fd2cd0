export { invoiceAvailable, type DocumentMailData } from './invoice-available.ts';
export { quoteAvailable } from './quote-available.ts';
export { paymentReceived, methodLabel, type PaymentMailData, type PaymentView } from './payment-received.ts';
export { paymentReceipt, type PaymentReceiptData } from './payment-receipt.ts';
export { quoteAnswered, type QuoteAnsweredData } from './quote-answered.ts';
export { paymentReminder, type ComposedMailData } from './payment-reminder.ts';
export { statementMail, type StatementMailData } from './statement.ts';
export { layoutValues, textFooter } from './layout.ts';
export type { MailCompany, MailParts, MailTemplate, TemplateName } from './template.ts';
