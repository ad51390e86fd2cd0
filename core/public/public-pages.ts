import express, { Router, type Request, type Response } from 'express';
import { BODY_LIMIT } from '../http/app.ts';
import { html } from '../http/html.ts';
import { shippedTranslator } from '../i18n/translator.ts';
import { documentFromRow, DOCUMENT_COLUMNS, type BillingDocument } from '../documents/document.ts';
import { documentPdf } from '../documents/document-pdf.ts';
import { pdfFilename } from '../pdf/file-name.ts';
import { downloadDisposition } from '../documents/attachments/file-type.ts';
import { quoteStatus } from '../documents/representation.ts';
import { isOpenInvoiceStatus } from '../documents/statuses.ts';
import { siteDate } from '../time/site-time.ts';
import { PUBLIC_HEADERS, PUBLIC_SCRIPT, PUBLIC_SCRIPT_PATH, publicPage } from './public-layout.ts';
import { pay, payingPolicy, paymentReturn } from './pay-flow.ts';
import { label, notFound, page, type Kind } from './public-templates.ts';
import type { PublicPagesDeps } from './types.ts';
import { unlock } from './unlock.ts';

/**
 * The customer's pages (docs/documents.md): a document opened with its access key, its PDF, and for quotes
 * the Accept / Decline forms. A wrong or missing key gets exactly the page a missing document gets.
 */
export function publicRouter(d: PublicPagesDeps): Router {
  const router = Router();

  router.get(PUBLIC_SCRIPT_PATH, (_req, res) => {
    res.set({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(PUBLIC_SCRIPT);
  });

  for (const kind of ['invoice', 'quote'] as const) {
    router.get(`/billing/${kind}/:id`, (req, res) => serve(d, kind, req, res, false));
    router.get(`/billing/${kind}/:id/pdf`, (req, res) => serve(d, kind, req, res, true));
    router.get(`/billing/${kind}/:id/attachments/:file`, (req, res) => serveAttachment(d, kind, req, res));
  }
  router.post('/billing/invoice/:id/pay', express.urlencoded({ limit: BODY_LIMIT, extended: false }), (req, res) => pay(d, req, res));
  router.get('/billing/payment/:reference/return', (req, res) => paymentReturn(d, req, res));
  return router;
}

/** `GET /billing/{kind}/{id}?key=…` and its `/pdf`: the document's page or PDF, for the holder of its access key. */
async function serve(d: PublicPagesDeps, kind: Kind, req: Request, res: Response, asPdf: boolean): Promise<void> {
  try {
    const doc = await unlock(d.db, kind, String(req.params.id), req.query.key);
    if (!doc) return notFound(res, await d.translations.translator());
    if (asPdf) {
      const pdf = await documentPdf(doc, d);
      res.set({
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'Content-Type': 'application/pdf',
        ETag: pdf.etag,
        'Content-Disposition': `inline; filename="${pdfFilename(doc)}"`,
      });
      res.end(pdf.bytes);
      return;
    }
    const viewed = kind === 'invoice' ? await countView(d, doc, req) : doc;
    const key = String(req.query.key);
    const o = await d.options.getMany([
      'company_name',
      'company_address',
      'company_email',
      'company_logo_url',
      'timezone',
      'allow_partial_payments',
    ]);
    const today = siteDate(new Date(), o.timezone);
    const tr = await d.translations.translator(doc.locale);
    const token = kind === 'quote' && quoteStatus(doc, today) === 'available' ? await d.quotes.mintToken(doc.id) : null;
    const payable = kind === 'invoice' && isOpenInvoiceStatus(viewed.status) && Number(viewed.totals.due) > 0;
    const gateways = payable ? await d.gateways.available() : [];
    const policy = gateways.length ? { 'Content-Security-Policy': payingPolicy(await d.gateways.origins()) } : {};
    // what active plugins add to the page (the e-signature addon's "Signed by" and its pad), inside the same policy
    const where = { kind, today };
    const blocks = await d.hooks.applyFilters('billing_public_document_blocks', [], viewed, where);
    const autopay = gateways.length > 0 && (await d.hooks.applyFilters('billing_invoice_autopay', false, viewed));
    const acceptFields = token ? await d.hooks.applyFilters('billing_public_accept_fields', [], viewed, where) : [];
    res
      .status(200)
      .set({ ...PUBLIC_HEADERS, ...policy })
      .end(
        publicPage(
          label(kind, doc.number, tr),
          page(viewed, {
            ...o,
            tr,
            today,
            key,
            token,
            gateways,
            autopay,
            blocks,
            acceptFields,
            attachments: await d.attachments.list(doc.id),
          }),
          tr.locale,
        ),
      );
  } catch (err) {
    d.log.error({ err, kind }, 'public page failed');
    if (!res.headersSent) {
      // the site's language, or the shipped English when even that cannot be read
      const tr = await d.translations.translator().catch(() => shippedTranslator());
      res
        .status(500)
        .set(PUBLIC_HEADERS)
        .end(publicPage(tr.t('page.error'), html`<h1>${tr.t('page.error')}</h1><p>${tr.t('page.error_text')}</p>`, tr.locale));
    }
  }
}

/**
 * `GET /billing/{kind}/{id}/attachments/{file}?key=…`: one of the document's files, for the holder of its
 * key, always as a download. A file of another document answers as a missing document does.
 */
async function serveAttachment(d: PublicPagesDeps, kind: Kind, req: Request, res: Response): Promise<void> {
  try {
    const doc = await unlock(d.db, kind, String(req.params.id), req.query.key);
    const id = /^\d{1,15}$/.test(String(req.params.file)) ? Number(req.params.file) : 0;
    const file = doc && id ? await d.attachments.file(id).catch(() => null) : null;
    if (!doc || !file || file.document_id !== doc.id) return notFound(res, await d.translations.translator());
    res.set({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Content-Type': file.content_type,
      'Content-Disposition': downloadDisposition(file.filename),
    });
    res.end(file.body);
  } catch (err) {
    d.log.error({ err, kind }, 'public attachment failed');
    if (!res.headersSent) res.status(500).end();
  }
}

/** Counts a customer's view (staff who are signed in do not count); the first one fires `billing_invoice_viewed`. */
async function countView(d: PublicPagesDeps, doc: BillingDocument, req: Request): Promise<BillingDocument> {
  const { user } = await d.auth.ajaxUser(req, undefined);
  if (user && (await d.auth.can(user, 'bill_view_invoices'))) return doc;
  return d.db.transaction(async (tx) => {
    const rows = await tx.query(
      `update billing_documents set viewed_count = viewed_count + 1, viewed_first = coalesce(viewed_first, now()), viewed_last = now()
        where id = $1 returning ${DOCUMENT_COLUMNS}`,
      [doc.id],
    );
    const viewed = documentFromRow(rows[0]!);
    if (viewed.viewed.count === 1) await d.hooks.fire(tx, 'billing_invoice_viewed', doc.id, viewed);
    return viewed;
  });
}
