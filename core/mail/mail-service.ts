import type { Actor } from '../audit/audit.ts';
import type { Config } from '../config.ts';
import type { AttachmentService } from '../documents/attachments/attachment-service.ts';
import type { Database } from '../db/database.ts';
import type { BillingDocument } from '../documents/document.ts';
import { DocumentSending, publicLink, type SendResult as DocumentSendResult } from '../documents/document-sending.ts';
import type { InvoiceService } from '../documents/invoice-service.ts';
import type { QuoteService } from '../documents/quote-service.ts';
import { siteDateTime } from '../time/site-time.ts';
import { BillingError } from '../errors.ts';
import type { Html } from '../http/html.ts';
import type { HookModels } from '../hooks/hook-models.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Logger } from '../log.ts';
import type { OptionsStore } from '../options/options.ts';
import type { Translations } from '../i18n/translations.ts';
import { shippedTranslator, type Translator } from '../i18n/translator.ts';
import type { PdfRenderer } from '../pdf/pdf-renderer.ts';
import { insertDelivery, listDeliveries, type Delivery } from './delivery-log.ts';
import { renderMail } from './render-mail.ts';
import {
  invoiceAvailable,
  paymentReceipt,
  paymentReceived,
  paymentReminder,
  quoteAnswered,
  statementMail,
  type StatementMailData,
  quoteAvailable,
  type MailCompany,
  type MailTemplate,
  type PaymentView,
} from './templates/index.ts';
import { createMailTransport, MailSendError, type MailAttachment, type MailTransport } from './transport.ts';

export interface MailDeps {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  pdf: PdfRenderer;
  translations: Translations;
  log: Logger;
  invoices: InvoiceService;
  quotes: QuoteService;
  /** The documents' attached files, which their mails carry (option `email_attachments`). */
  attachments: AttachmentService;
  /** Where mail goes; by default SMTP_URL's server, else the `.eml` outbox. */
  transport?: MailTransport;
}

/** The outcome of sending a document: the document after it (issued if it was a draft) and the log row. */
export type SendResult = DocumentSendResult<Delivery>;

/** The Content-ID of a logo carried in the mail (option `company_logo_url` as a `data:` URL). */
const LOGO_CID = 'company-logo@billing';
const DATA_IMAGE = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/=\s]+)$/;

interface DeliverTo {
  to: string;
  /** The document the mail is about (the `billing_email` filter's third argument), or null. */
  document: BillingDocument | null;
  paymentId?: number | null;
  attachments?: MailAttachment[];
  actor: Actor;
  /** The customer's language when no document carries it (a statement: the client's). */
  locale?: string | null;
}

/**
 * E-mail (README.md, docs/ajax.md): renders a template (compiled once per process), passes the message through
 * `billing_email`, hands it to the transport and records the attempt in the delivery log, whatever
 * its outcome. Sending a document (what may be sent, issuing a draft once the server took the mail) is
 * the documents module's (core/documents/document-sending.ts); `sendInvoice` and `sendQuote` run it.
 */
export class MailService {
  readonly transport: MailTransport;
  private readonly d: MailDeps;
  /** Sending a document (the documents module's rules), with this service composing and delivering its mail. */
  private readonly documents: DocumentSending<Delivery>;

  constructor(deps: MailDeps) {
    this.d = deps;
    this.transport = deps.transport ?? createMailTransport({ smtpUrl: deps.config.smtpUrl, dataDir: deps.config.dataDir, log: deps.log });
    this.documents = new DocumentSending({ ...deps, mailer: this });
  }

  /** Sends the invoice to its customer (`invoice_available`), the PDF attached per `attach_pdf_to_email`. */
  sendInvoice(id: number, actor: Actor): Promise<SendResult> {
    return this.documents.send('invoice', id, actor);
  }

  /** Sends the quote to its customer (`quote_available`), with the link to accept or decline it. */
  sendQuote(id: number, actor: Actor): Promise<SendResult> {
    return this.documents.send('quote', id, actor);
  }

  /** The delivery log of a document, newest first. */
  async deliveries(documentId: number): Promise<Delivery[]> {
    return listDeliveries(this.d.db, documentId, await this.d.options.get('timezone'));
  }

  /** A document's own mail (`invoice_available`, `quote_available`), for the documents module's sending. */
  documentMail(
    kind: 'invoice' | 'quote',
    data: { doc: BillingDocument; link: string; pdfAttached: boolean },
    to: { to: string; document: BillingDocument; attachments: MailAttachment[]; actor: Actor },
  ): Promise<{ delivery: Delivery; failure: string | null }> {
    return this.deliver(kind === 'invoice' ? invoiceAvailable : quoteAvailable, data, to);
  }

  /**
   * After a completed payment, to the customer (`payment_received`, with the invoice's link); nothing
   * when the invoice has no customer address. Outbox work: a failure the server may recover from throws
   * (the item is retried), a permanent refusal is only in the delivery log.
   */
  async paymentReceivedMail(invoice: BillingDocument, payment: HookModels['payment'], actor: Actor): Promise<void> {
    const to = invoice.customer.email.trim();
    if (!to) {
      this.d.log.info({ invoice: invoice.id, template: 'payment_received' }, 'no customer e-mail address: payment mail not sent');
      return;
    }
    const view = paymentView(payment, invoice, await this.d.options.get('timezone'));
    const link = await publicLink(this.d, 'invoice', invoice.id);
    retryUnlessPermanent(
      await this.deliver(paymentReceived, { invoice, payment: view, link }, { to, document: invoice, paymentId: idOf(payment), actor }),
    );
  }

  /** After a completed payment, the administrator's receipt (`payment_receipt`). */
  async paymentReceiptMail(invoice: BillingDocument, payment: HookModels['payment'], actor: Actor): Promise<void> {
    const admin = await this.adminAddress();
    if (!admin) return;
    const view = paymentView(payment, invoice, await this.d.options.get('timezone'));
    retryUnlessPermanent(
      await this.deliver(paymentReceipt, { invoice, payment: view }, { to: admin, document: invoice, paymentId: idOf(payment), actor }),
    );
  }

  /** To the administrator, after a customer accepted or declined a quote (`quote_answered`). */
  async quoteAnsweredMail(quote: BillingDocument, invoice: BillingDocument | null, actor: Actor): Promise<void> {
    const admin = await this.adminAddress();
    if (admin) retryUnlessPermanent(await this.deliver(quoteAnswered, { quote, invoice }, { to: admin, document: quote, actor }));
  }

  /**
   * A payment reminder to the invoice's customer (`payment_reminder`), worded by the caller: `compose`
   * gets the public link and the company's name and returns the subject, the HTML body (its values
   * escaped, e.g. with `html`) and the text part. Outbox work, like the payment mails: a failure the
   * server may recover from throws (retried), a permanent refusal is returned in the delivery log row.
   */
  async reminderMail(
    invoice: BillingDocument,
    compose: (values: { link: string; companyName: string; tr: Translator }) => { subject: string; html: Html; text: string },
    actor: Actor,
  ): Promise<{ delivery: Delivery; failure: string | null }> {
    const to = invoice.customer.email.trim();
    if (!to) throw new BillingError('billing_mail_no_recipient', 'The invoice has no customer e-mail address.');
    const link = await publicLink(this.d, 'invoice', invoice.id);
    const companyName = await this.d.options.get('company_name');
    const message = compose({ link, companyName, tr: await this.d.translations.translator(invoice.locale) });
    const result = await this.deliver(paymentReminder, { doc: invoice, link, ...message }, { to, document: invoice, actor });
    retryUnlessPermanent(result);
    return result;
  }

  /**
   * A client's statement of account (`statement`), its PDF attached, in the client's language. A
   * refused message is 502 `billing_mail_failed`, as for a document sent by hand.
   */
  async statementMail(to: string, locale: string | null, data: StatementMailData, pdf: Buffer, actor: Actor): Promise<Delivery> {
    if (!to.trim()) throw new BillingError('billing_mail_no_recipient', 'The client has no e-mail address.');
    const attachments = [{ filename: data.file, content: pdf, contentType: 'application/pdf' }];
    const { delivery, failure } = await this.deliver(statementMail, data, { to: to.trim(), document: null, attachments, actor, locale });
    if (failure) throw new BillingError('billing_mail_failed', `The e-mail could not be sent: ${failure}`, { delivery_id: delivery.id });
    return delivery;
  }

  /** Closes the transport's connections (background mails are outbox items: nothing is under way in memory). */
  async close(): Promise<void> {
    await this.transport.close();
  }

  /**
   * Renders, filters, sends and records one message. Never throws for a refused message: the caller
   * gets the delivery row and the failure text, and decides what it means.
   */
  private async deliver<D>(template: MailTemplate<D>, data: D, opts: DeliverTo): Promise<{ delivery: Delivery; failure: string | null }> {
    const { company, from, replyTo, logo } = await this.sender();
    // a customer reads the document's language; the administrator's notices stay in the shipped English
    const tr =
      template.audience === 'customer' ? await this.d.translations.translator(opts.locale ?? opts.document?.locale) : shippedTranslator();
    const rendered = await renderMail(template, data, company, tr);
    const filtered = await this.d.hooks.applyFilters(
      'billing_email',
      {
        to: opts.to,
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
        attachments: [...logo, ...(opts.attachments ?? [])],
      },
      template.name,
      opts.document,
    );
    const to = typeof filtered.to === 'string' ? filtered.to.trim() : '';
    if (!to) throw new BillingError('billing_mail_no_recipient', 'The billing_email filter left the message without a recipient.');
    const message = {
      from,
      ...(replyTo ? { replyTo } : {}),
      to,
      subject: String(filtered.subject),
      html: String(filtered.html),
      text: String(filtered.text),
      attachments: (filtered.attachments ?? []) as MailAttachment[],
      // A mail that follows a payment is sent from the outbox, at least once: a crash after the SMTP
      // server took it but before we recorded that sends it again. It then carries the same Message-ID,
      // so mail servers and clients see one message (RFC 5322 §3.6.4), not two.
      ...(opts.paymentId ? { messageId: `<${template.name}.${opts.paymentId}@${mailDomain(this.d.config.baseUrl)}>` } : {}),
    };

    const started = performance.now();
    let response = '';
    let messageId: string | null = null;
    let failure: string | null = null;
    try {
      const sent = await this.transport.send(message);
      response = sent.response;
      messageId = sent.messageId || null;
    } catch (err) {
      failure = err instanceof MailSendError ? err.response || err.message : (err as Error).message;
      response = err instanceof MailSendError ? err.response : '';
    }
    const delivery = await insertDelivery(
      this.d.db,
      {
        documentId: opts.document?.id ?? null,
        paymentId: opts.paymentId ?? null,
        template: template.name,
        recipient: to,
        subject: message.subject,
        transport: this.transport.kind,
        result: failure ? 'failed' : 'sent',
        response,
        error: failure,
        messageId,
        actor: opts.actor,
        durationMs: Math.round(performance.now() - started),
      },
      await this.d.options.get('timezone'),
    );
    // the document and the addresses, never the body or the link: the access key lives there
    const line = {
      delivery: delivery.id,
      template: template.name,
      document: opts.document?.id ?? null,
      to,
      transport: this.transport.kind,
    };
    if (failure) this.d.log.warn({ ...line, error: failure }, 'mail not sent');
    else this.d.log.info({ ...line, response }, 'mail sent');
    return { delivery, failure };
  }

  /** The company as the mails show it, the sender address, and the logo when it travels inside the mail. */
  private async sender(): Promise<{
    company: MailCompany;
    from: { name: string; address: string };
    replyTo: string;
    logo: MailAttachment[];
  }> {
    const o = await this.d.options.getMany(['company_name', 'company_address', 'company_email', 'company_logo_url']);
    const logoUrl = o.company_logo_url.trim();
    const data = DATA_IMAGE.exec(logoUrl);
    const logo: MailAttachment[] = data
      ? [
          {
            filename: `logo.${data[1]!.slice(6).replace('jpeg', 'jpg')}`,
            content: Buffer.from(data[2]!, 'base64'),
            contentType: data[1]!,
            cid: LOGO_CID,
          },
        ]
      : [];
    const logoSrc = data ? `cid:${LOGO_CID}` : /^https?:\/\//i.test(logoUrl) ? logoUrl : '';
    const email = o.company_email.trim();
    return {
      company: { name: o.company_name, address: o.company_address, email, logoSrc },
      from: { name: o.company_name, address: email || `billing@${mailDomain(this.d.config.baseUrl)}` },
      replyTo: email,
      logo,
    };
  }

  /** Where the administrator's notices go: option `company_email`, else the first administrator's address. */
  private async adminAddress(): Promise<string | null> {
    const email = (await this.d.options.get('company_email')).trim();
    if (email) return email;
    const rows = await this.d.db.query<{ email: string }>(
      `select email from billing_users where role = 'administrator' and email <> '' order by id limit 1`,
    );
    if (!rows.length) this.d.log.info('no administrator address (company_email): notice not sent');
    return rows[0]?.email ?? null;
  }
}

/**
 * An outbox mail that did not go: a permanent refusal (an SMTP 5xx: the address does not exist) is
 * final, and in the delivery log; anything else (a 4xx, a server that cannot be reached) is thrown, so
 * the item is tried again later.
 */
function retryUnlessPermanent({ failure }: { failure: string | null }): void {
  if (failure && !/^5\d\d\b/.test(failure.trim())) throw new Error(`mail not sent: ${failure}`);
}

function idOf(payment: HookModels['payment']): number | null {
  return Number.isSafeInteger(payment.id) ? payment.id : null;
}

/** The host of BASE_URL as a mail domain (`localhost` when it is an IP address). */
function mailDomain(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  return /[a-z]/i.test(host) && !host.includes(':') ? host : 'localhost';
}

/** The fields the mails show, read from the payment the hook carries (its shape belongs to the payments module). */
export function paymentView(payment: HookModels['payment'], invoice: BillingDocument, timezone: string): PaymentView {
  const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '');
  const date = payment.date instanceof Date ? siteDateTime(payment.date, timezone) : text(payment.date);
  return {
    amount: text(payment.amount) || '0',
    currency: text(payment.currency) || invoice.currency,
    method: text(payment.method),
    reference: text(payment.reference),
    date: /^\d{4}-\d{2}-\d{2}/.test(date) ? date : '',
  };
}
