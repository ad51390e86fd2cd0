import { audit, type Actor } from '../audit/audit.ts';
import type { Config } from '../config.ts';
import { timestamp, type Database } from '../db/database.ts';
import type { BillingDocument } from '../documents/document.ts';
import { documentPdf } from '../documents/document-pdf.ts';
import { pdfFilename } from '../pdf/file-name.ts';
import type { InvoiceService } from '../documents/invoice-service.ts';
import type { QuoteService } from '../documents/quote-service.ts';
import { quoteStatus } from '../documents/representation.ts';
import { siteDate, siteDateTime } from '../time/site-time.ts';
import { BillingError } from '../errors.ts';
import type { HookModels } from '../hooks/hook-models.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Logger } from '../log.ts';
import type { OptionsStore } from '../options/options.ts';
import type { PdfRenderer } from '../pdf/index.ts';
import { insertDelivery, listDeliveries, type Delivery } from './delivery-log.ts';
import { renderMail } from './render-mail.ts';
import {
  invoiceAvailable,
  paymentReceipt,
  paymentReceived,
  quoteAnswered,
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
  log: Logger;
  invoices: InvoiceService;
  quotes: QuoteService;
  /** Where mail goes; by default SMTP_URL's server, else the `.eml` outbox. */
  transport?: MailTransport;
}

/** The outcome of sending a document: the document after it (issued if it was a draft) and the log row. */
export interface SendResult {
  document: BillingDocument;
  /** True when this send issued a draft (status `available`). */
  issued: boolean;
  delivery: Delivery;
}

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
}

/**
 * E-mail (contract §1, §6): renders a template (compiled once per process), passes the message through
 * `billing_email`, hands it to the transport and records the attempt in the delivery log, whatever
 * its outcome. Sending a document issues it if it was a draft, but only after the server took the mail;
 * a failed send changes nothing and is reported as `billing_mail_failed`.
 */
export class MailService {
  readonly transport: MailTransport;
  private readonly d: MailDeps;

  constructor(deps: MailDeps) {
    this.d = deps;
    this.transport = deps.transport ?? createMailTransport({ smtpUrl: deps.config.smtpUrl, dataDir: deps.config.dataDir, log: deps.log });
  }

  /** Sends the invoice to its customer (`invoice_available`), the PDF attached per `attach_pdf_to_email`. */
  sendInvoice(id: number, actor: Actor): Promise<SendResult> {
    return this.sendDocument('invoice', id, actor);
  }

  /** Sends the quote to its customer (`quote_available`), with the link to accept or decline it. */
  sendQuote(id: number, actor: Actor): Promise<SendResult> {
    return this.sendDocument('quote', id, actor);
  }

  /** The delivery log of a document, newest first. */
  async deliveries(documentId: number): Promise<Delivery[]> {
    return listDeliveries(this.d.db, documentId, await this.d.options.get('timezone'));
  }

  private async sendDocument(kind: 'invoice' | 'quote', id: number, actor: Actor): Promise<SendResult> {
    const service = kind === 'invoice' ? this.d.invoices : this.d.quotes;
    const doc = await service.get(id);
    const o = await this.d.options.getMany(['timezone', 'attach_pdf_to_email']);
    const status = kind === 'quote' ? quoteStatus(doc, siteDate(new Date(), o.timezone)) : doc.status;
    const sendable = kind === 'invoice' ? status !== 'cancelled' : status === 'draft' || status === 'available';
    if (!sendable) throw new BillingError('billing_rest_invalid_state', `A ${status} ${kind} is not sent.`);
    const to = doc.customer.email.trim();
    if (!to) throw new BillingError('billing_mail_no_recipient', `The ${kind} has no customer e-mail address.`);

    // sending issues a draft: whatever refuses issuing refuses before the mail leaves
    if (kind === 'invoice' && doc.status === 'draft') await this.d.invoices.checkIssuable(doc, 'send');
    // The customer receives the document as it will be once sent: a draft's mail and PDF read "available".
    const asSent: BillingDocument = doc.status === 'draft' ? { ...doc, status: 'available' } : doc;
    const attachments: MailAttachment[] = [];
    if (o.attach_pdf_to_email) {
      const pdf = await documentPdf(asSent, this.d);
      attachments.push({ filename: pdfFilename(doc), content: Buffer.from(pdf.bytes), contentType: 'application/pdf' });
    }
    const link = await this.publicLink(kind, id);
    const template = kind === 'invoice' ? invoiceAvailable : quoteAvailable;
    const { delivery, failure } = await this.deliver(
      template,
      { doc: asSent, link, pdfAttached: attachments.length > 0 },
      { to, document: doc, attachments, actor },
    );
    if (failure) {
      throw new BillingError('billing_mail_failed', `The e-mail could not be sent: ${failure}`, { delivery_id: delivery.id });
    }

    // Only now, with the message taken by the server, does the document change.
    return this.d.db.transaction(async (tx) => {
      const current = (await service.find(id, tx, true))!;
      let updated = current;
      let issued = false;
      if (current.status === 'draft' && !current.trashed) {
        updated =
          kind === 'invoice'
            ? await this.d.invoices.setStatus(tx, current, 'available', actor)
            : await this.d.quotes.issue(tx, current, actor);
        issued = true;
      }
      // the first time it went out; every later send is in the delivery log
      const [row] = await tx.query<{ sent_at: string }>(
        'update billing_documents set sent_at = coalesce(sent_at, now()) where id = $1 returning sent_at',
        [id],
      );
      updated = { ...updated, sentAt: timestamp(row!.sent_at) };
      await audit(tx, actor, {
        action: `${kind}.send`,
        objectType: kind,
        objectId: id,
        details: { to: delivery.recipient, delivery_id: delivery.id, issued },
      });
      const sent = updated;
      if (kind === 'invoice') await this.d.hooks.fire(tx, 'billing_invoice_sent', id, sent);
      else await this.d.hooks.fire(tx, 'billing_quote_sent', id, sent);
      return { document: sent, issued, delivery };
    });
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
    const link = await this.publicLink('invoice', invoice.id);
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
    const rendered = await renderMail(template, data, company);
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

  /** `{BASE_URL}/billing/{kind}/{id}?key=…`: the public page the customer opens (contract §5). */
  private async publicLink(kind: 'invoice' | 'quote', id: number): Promise<string> {
    const service = kind === 'invoice' ? this.d.invoices : this.d.quotes;
    return `${this.d.config.baseUrl}/billing/${kind}/${id}?key=${encodeURIComponent(await service.accessKey(id))}`;
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
