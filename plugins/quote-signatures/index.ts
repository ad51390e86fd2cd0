import { createHash } from 'node:crypto';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import {
  ASSET_PREFIX,
  BillingError,
  cleanPng,
  definePlugin,
  filter,
  html,
  siteDateTime,
  type Acceptance,
  type AcceptanceContext,
  type BillingDocument,
  type PluginContext,
  type Translator,
} from '../../core/plugin-api.ts';
// E-signatures on accepted quotes (docs/quote-signatures.md): the pad on the public quote page, the checked PNG
// stored with the content hash, and "Signed by" on the quote and on the invoice made from it.
// docs/quote-signatures.md is the user's page.
import { PAD_SCRIPT, PAD_SCRIPT_NAME } from './pad-script.ts';
import { checkSignaturePng, SIGNATURE_BOUNDS } from './png.ts';
import { SIGNATURE_TEXTS } from './texts.ts';
import { contentSha256, dataUrl, insertSignature, signatureFor, signedLine, type StoredSignature } from './signatures.ts';

declare module 'billing-service' {
  interface ErrorMap {
    billing_signature_required: 400;
  }
  interface OptionMap {
    quote_signature_required: boolean;
  }
}

/** What the quote's `accepted` gains, and what `billing_quote_signed` carries. */
export interface SignatureRecord {
  signer_name: string;
  signed_at: string;
  content_sha256: string;
}

declare module 'billing-service' {
  interface ActionMap {
    billing_quote_signed: [quoteId: number, quote: BillingDocument, signature: SignatureRecord];
  }
}

const MAX_NAME = 200;

/** A refusal of the acceptance, as the visitor gets it: 400 `billing_signature_required`. */
class Refused extends Error {}
const refuse = (message: string) => new Refused(message);

/**
 * Inside the accepting transaction: with a signature and a name, checks and stores them and adds the
 * record to `accepted`; without, refuses when `quote_signature_required` is on. A refusal stops the
 * acceptance, so the quote, the token and the invoice number all stay as they were.
 */
async function acceptWithSignature(
  ctx: PluginContext,
  acceptance: Acceptance,
  quote: BillingDocument,
  c: AcceptanceContext,
): Promise<Acceptance> {
  try {
    return { ...acceptance, record: await signedRecord(ctx, acceptance.record, quote, c) };
  } catch (err) {
    // every image checker busy: a 503 with Retry-After, the token not charged (a throw here would be a 500)
    if (err instanceof BillingError && err.code === 'billing_busy') {
      return { ...acceptance, refusals: [...acceptance.refusals, { code: err.code, message: err.message, data: err.data }] };
    }
    if (!(err instanceof Refused)) throw err;
    const refusal = { code: 'billing_signature_required' as const, message: err.message };
    return { ...acceptance, refusals: [...acceptance.refusals, refusal] };
  }
}

async function signedRecord(
  ctx: PluginContext,
  record: Record<string, unknown>,
  quote: BillingDocument,
  c: AcceptanceContext,
): Promise<Record<string, unknown>> {
  const signature = (c.fields.signature ?? '').trim();
  const name = (c.fields.signer_name ?? '').replace(/\s+/g, ' ').trim();
  const { signature: _raw, ...rest } = record;
  // the visitor reads a refusal in the page's answer box: in the quote's language
  const tr = await ctx.api.translations.translator(quote.locale);
  if (!signature && !name) {
    if (await ctx.options.get('quote_signature_required', c.tx)) throw refuse(tr.t('quote_signatures.refused_both'));
    return rest;
  }
  if (!signature) throw refuse(tr.t('quote_signatures.refused_signature'));
  if (!name) throw refuse(tr.t('quote_signatures.refused_name'));
  if (name.length > MAX_NAME) throw refuse(tr.t('quote_signatures.refused_name_length', { max: MAX_NAME }));
  const png = await checkSignaturePng(signature);
  if (!png.ok) throw refuse(tr.t('quote_signatures.refused_image', { reason: png.reason }));

  const stored = await insertSignature(c.tx, {
    quote_id: quote.id,
    signer_name: name,
    ip: c.ip,
    user_agent: c.userAgent ? c.userAgent.slice(0, 500) : null,
    content_sha256: contentSha256(quote),
    image: png.bytes,
    image_sha256: createHash('sha256').update(png.bytes).digest('hex'),
  });
  const view: SignatureRecord = {
    signer_name: stored.signer_name,
    signed_at: siteDateTime(stored.signed_at, await ctx.options.get('timezone', c.tx)),
    content_sha256: stored.content_sha256,
  };
  await ctx.hooks.fire(c.tx, 'billing_quote_signed', quote.id, quote, view);
  return { ...rest, signature: view };
}

async function pdfBlock(ctx: PluginContext, s: StoredSignature, tr: Translator): Promise<Content> {
  // A render never depends on an unverified image: what is drawn is the image decoded and encoded again
  // (checked once, then remembered). One stored before signatures were re-encoded that fails the check
  // is left out — a bad image must not stall the PDF worker or fail the quote's and invoice's PDFs.
  const image = await cleanPng(s.image, SIGNATURE_BOUNDS).catch((err: unknown) => {
    // every image checker busy: this render goes without the drawing rather than fail
    if (err instanceof BillingError && err.code === 'billing_busy') return { ok: false as const, reason: err.message };
    throw err;
  });
  if (!image.ok) ctx.log.warn({ quoteId: s.quote_id, reason: image.reason }, 'a stored signature image fails its check; drawn without it');
  return {
    unbreakable: true,
    margin: [0, 18, 0, 0],
    stack: [
      { text: tr.t('quote_signatures.signature').toUpperCase(), fontSize: 8, bold: true, color: '#6b7280', characterSpacing: 0.6 },
      image.ok
        ? { image: `data:image/png;base64,${image.bytes.toString('base64')}`, fit: [200, 70], margin: [0, 4, 0, 4] }
        : { text: tr.t('quote_signatures.not_shown'), fontSize: 8, italics: true, color: '#6b7280', margin: [0, 4, 0, 4] },
      { text: await signedLine(ctx, s, tr), fontSize: 9, bold: true },
      { text: tr.t('quote_signatures.content_hash', { hash: s.content_sha256 }), fontSize: 6.5, color: '#6b7280', margin: [0, 2, 0, 0] },
    ],
  };
}

export default definePlugin({
  name: 'quote-signatures',
  translations: SIGNATURE_TEXTS,
  errors: {
    billing_signature_required: {
      status: 400,
      description: 'Accepting needs a valid signature and a name (or what was sent is not a valid signature).',
    },
  },
  version: '1.0.0',
  compatibility: '^0.1.0',
  title: 'Quote e-signatures',
  description: 'Customers sign a quote on its public page to accept it; the signature appears on the quote and its invoice.',
  settings: {
    quote_signature_required: {
      type: 'boolean',
      default: true,
      description: 'Accepting a quote needs a drawn signature and the signer’s name',
    },
  },
  migrations: [
    {
      name: '0001_signatures',
      up: `
        -- one signature per quote (a quote is accepted once); the drawing, and SHA-256 of what was signed
        create table billing_quote_signatures (
          quote_id bigint primary key references billing_documents (id),
          signer_name text not null,
          signed_at timestamptz not null default now(),
          ip text,
          user_agent text,
          content_sha256 text not null,
          image bytea not null,
          image_sha256 text not null
        );
        -- the invoice made from a quote finds the quote's signature
        create index billing_quote_signatures_invoice on billing_documents (invoice_id) where kind = 'quote' and invoice_id is not null;
      `,
    },
    {
      name: '0002_prefixed_tables',
      up: `
          -- a plugin's tables carry its name (docs/plugins.md, the read model)
          alter table billing_quote_signatures rename to quote_signatures;
        `,
    },
  ],
  hooks: { actions: [{ name: 'billing_quote_signed', args: ['quoteId', 'quote', 'signature'] }] },
  listeners: [
    // in an export: the signatures, images included
    filter('billing_export_sections', () => async (sections) => [
      ...sections,
      { name: 'quote-signatures/signatures', table: 'quote_signatures', key: ['quote_id'] },
    ]),
    filter('billing_quote_acceptance', (ctx: PluginContext) => (acceptance, quote, c) => acceptWithSignature(ctx, acceptance, quote, c)),
    filter('billing_public_accept_fields', (ctx: PluginContext) => async (fields, quote) => {
      const required = await ctx.options.get('quote_signature_required');
      const tr = await ctx.api.translations.translator(quote.locale);
      return [
        ...fields,
        html`<fieldset class="signature" style="border:1px solid #d0d7de;border-radius:4px;padding:.6em .8em">
  <legend>${tr.t(required ? 'quote_signatures.signature' : 'quote_signatures.signature_optional')}</legend>
  <canvas id="signature-pad" width="600" height="180" style="width:100%;max-width:30em;aspect-ratio:10/3;border:1px dashed #8c959f;border-radius:4px;touch-action:none;background:#fff" aria-label="${tr.t('quote_signatures.sign_here')}"></canvas>
  <input type="hidden" id="signature-data" name="signature" value="">
  <label for="signer-name">${tr.t('quote_signatures.full_name')}</label>
  <input id="signer-name" name="signer_name" maxlength="${MAX_NAME}" autocomplete="name"${required ? ' required' : ''}>
  <button type="button" id="signature-clear" class="secondary">${tr.t('quote_signatures.clear')}</button>
</fieldset>
<script src="${ASSET_PREFIX}${PAD_SCRIPT_NAME}" defer></script>`,
      ];
    }),
    filter('billing_public_document_blocks', (ctx: PluginContext) => async (blocks, doc) => {
      const s = await signatureFor(ctx, doc);
      if (!s) return blocks;
      const tr = await ctx.api.translations.translator(doc.locale);
      return [
        ...blocks,
        html`<section class="signed-by"><h3>${tr.t('quote_signatures.signature')}</h3>
  <img src="${dataUrl(s)}" alt="${tr.t('quote_signatures.image_of', { name: s.signer_name })}" style="max-width:16em;max-height:6em;display:block">
  <p>${await signedLine(ctx, s, tr)}</p></section>`,
      ];
    }),
    filter('billing_pdf_document', (ctx: PluginContext) => async (definition, doc) => {
      const s = await signatureFor(ctx, doc as BillingDocument);
      if (!s) return definition;
      const d = definition as unknown as TDocumentDefinitions;
      const content = Array.isArray(d.content) ? d.content : [d.content];
      const tr = await ctx.api.translations.translator((doc as BillingDocument).locale);
      return { ...d, content: [...content, await pdfBlock(ctx, s, tr)] } as unknown as Record<string, unknown>;
    }),
  ],
  assets: [{ name: PAD_SCRIPT_NAME, type: 'text/javascript; charset=utf-8', body: PAD_SCRIPT }],
});
