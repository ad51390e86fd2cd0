import { audit, type Actor } from '../audit/audit.ts';
import { timestamp, type Database } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { OptionsStore } from '../options/options.ts';
import { pdfFilename } from '../pdf/file-name.ts';
import type { Translations } from '../i18n/translations.ts';
import type { PdfRenderer } from '../pdf/pdf-renderer.ts';
import { siteDate } from '../time/site-time.ts';
import type { AttachmentService } from './attachments/attachment-service.ts';
import type { BillingDocument } from './document.ts';
import { documentPdf } from './document-pdf.ts';
import type { InvoiceService } from './invoice-service.ts';
import type { QuoteService } from './quote-service.ts';
import { quoteStatus } from './representation.ts';

type Kind = 'invoice' | 'quote';

/** A file the document's mail carries (the PDF, the document's attachments), as the mail transport takes it. */
export interface DocumentAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/**
 * What sending a document needs from the mail service: compose the document's mail (`invoice_available`
 * or `quote_available`), hand it to the server and record the attempt. It never throws for a refused
 * message: the delivery row and the failure text come back, and the sender decides what they mean.
 * `R` is the delivery log's row (the mail module's `Delivery`): the documents module does not read it.
 */
export interface DocumentMailer<R> {
  documentMail(
    kind: Kind,
    data: { doc: BillingDocument; link: string; pdfAttached: boolean },
    to: { to: string; document: BillingDocument; attachments: DocumentAttachment[]; actor: Actor },
  ): Promise<{ delivery: R; failure: string | null }>;
}

/** The outcome of sending a document: the document after it (issued if it was a draft) and the log row. */
export interface SendResult<R> {
  document: BillingDocument;
  /** True when this send issued a draft (status `available`). */
  issued: boolean;
  delivery: R;
}

export interface DocumentSendingDeps<R> {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  config: { baseUrl: string };
  pdf: PdfRenderer;
  translations: Translations;
  invoices: InvoiceService;
  quotes: QuoteService;
  attachments: AttachmentService;
  mailer: DocumentMailer<R>;
}

/** `{BASE_URL}/billing/{kind}/{id}?key=…`: the public page the customer opens, with its access key. */
export async function publicLink(
  d: { config: { baseUrl: string }; invoices: InvoiceService; quotes: QuoteService },
  kind: Kind,
  id: number,
): Promise<string> {
  const service = kind === 'invoice' ? d.invoices : d.quotes;
  return publicUrl(d.config.baseUrl, kind, id, await service.accessKey(id));
}

/** The keyed address of a document's public page. */
export function publicUrl(baseUrl: string, kind: Kind, id: number, key: string): string {
  return `${baseUrl}/billing/${kind}/${id}?key=${encodeURIComponent(key)}`;
}

/**
 * Sending a document to its customer: what may be sent, to whom, with which PDF and link; then, only
 * once the mail server took the message, issuing a draft, stamping `sent_at`, the audit entry and
 * `billing_invoice_sent` / `billing_quote_sent`. A failed send changes nothing and is reported as
 * `billing_mail_failed`. Composing and delivering the mail is the mail service's (`DocumentMailer`).
 */
export class DocumentSending<R extends { id: number; recipient: string }> {
  private readonly d: DocumentSendingDeps<R>;

  constructor(deps: DocumentSendingDeps<R>) {
    this.d = deps;
  }

  async send(kind: Kind, id: number, actor: Actor): Promise<SendResult<R>> {
    const service = kind === 'invoice' ? this.d.invoices : this.d.quotes;
    const doc = await service.get(id);
    const o = await this.d.options.getMany(['timezone', 'attach_pdf_to_email', 'email_attachments']);
    const status = kind === 'quote' ? quoteStatus(doc, siteDate(new Date(), o.timezone)) : doc.status;
    const sendable = kind === 'invoice' ? status !== 'cancelled' : status === 'draft' || status === 'available';
    if (!sendable) throw new BillingError('billing_rest_invalid_state', `A ${status} ${kind} is not sent.`);
    const to = doc.customer.email.trim();
    if (!to) throw new BillingError('billing_mail_no_recipient', `The ${kind} has no customer e-mail address.`);

    // sending issues a draft: whatever refuses issuing refuses before the mail leaves
    if (kind === 'invoice' && doc.status === 'draft') await this.d.invoices.checkIssuable(doc, 'send');
    // The customer receives the document as it will be once sent: a draft's mail and PDF read "available".
    const asSent: BillingDocument = doc.status === 'draft' ? { ...doc, status: 'available' } : doc;
    const attachments: DocumentAttachment[] = [];
    if (o.attach_pdf_to_email) {
      const pdf = await documentPdf(asSent, this.d);
      attachments.push({ filename: pdfFilename(doc), content: Buffer.from(pdf.bytes), contentType: 'application/pdf' });
    }
    const pdfAttached = attachments.length > 0;
    // the files attached to the document go with it, after its PDF
    if (o.email_attachments)
      for (const f of await this.d.attachments.files(id))
        attachments.push({ filename: f.filename, content: f.body, contentType: f.content_type });
    const link = await publicLink(this.d, kind, id);
    const { delivery, failure } = await this.d.mailer.documentMail(
      kind,
      { doc: asSent, link, pdfAttached },
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
}
