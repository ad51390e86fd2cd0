// PDFs for the rest of the service: a definition in, bytes and an ETag out. Rendering happens in a
// worker pool (the event loop never lays out a page); the result is cached by the hash of the final
// definition, so an unchanged document is rendered once, however often and however concurrently it is
// asked for.
import { createHash } from 'node:crypto';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { canonicalJson } from './canonical-json.ts';
import { buildPdfDefinition, type BuildPdfOptions } from './document-definition.ts';
import type { PdfCompany, PdfDocumentModel } from './document-model.ts';
import { statementDefinition, type PdfStatementModel } from './statement-definition.ts';
import type { Translator } from '../i18n/translator.ts';
import { rendererFingerprint } from './fonts.ts';
import { PdfCache } from './pdf-cache.ts';
import { PdfRenderPool } from './render-pool.ts';
import { cleanPng, type PngBounds } from '../images/clean-png.ts';

/** A logo drawn at most 150×56 points: anything within these bounds is plenty. */
const LOGO_BOUNDS: PngBounds = { maxBytes: 600 * 1024, maxWidth: 2400, maxHeight: 2400 };

export interface PdfRendererOptions {
  /** Worker threads; default min(2, available cores − 1), at least 1. */
  poolSize?: number;
  /** Renders waiting for a worker before more are refused with 503 `billing_pdf_busy`; default 32 per worker. */
  maxQueue?: number;
  /** Bound of the in-memory cache, in bytes of PDF; default 64 MiB. 0 disables caching (not sharing). */
  cacheMaxBytes?: number;
}

export interface RenderedPdf {
  /** The PDF. Shared with the cache and other callers: do not modify. */
  bytes: Buffer;
  /** A strong HTTP entity tag, quotes included, e.g. `"q1w2…"`: the same for the same definition. */
  etag: string;
  /** SHA-256 (base64url) of the renderer's fingerprint and the definition's canonical JSON. */
  hash: string;
  /** `rendered` by this call, taken from the `cache`, or `shared` with a render already under way. */
  source: 'rendered' | 'cache' | 'shared';
}

export interface PdfRendererStats {
  /** Definitions actually rendered by a worker. */
  renders: number;
  cacheHits: number;
  /** Calls that joined a render of the same hash already under way. */
  shared: number;
  cacheEntries: number;
  cacheBytes: number;
}

export class PdfRenderer {
  readonly pool: PdfRenderPool;
  readonly #cache: PdfCache;
  readonly #inFlight = new Map<string, Promise<{ bytes: Buffer; etag: string }>>();
  readonly #fingerprint = rendererFingerprint();
  /** Hashes of logos that made a render fail: documents are drawn without them. */
  readonly #badLogos = new Set<string>();
  #renders = 0;
  #hits = 0;
  #shared = 0;

  constructor(options: PdfRendererOptions = {}) {
    this.pool = new PdfRenderPool({ size: options.poolSize, maxQueue: options.maxQueue });
    this.#cache = new PdfCache(options.cacheMaxBytes ?? 64 * 1024 * 1024);
  }

  /**
   * Builds the definition of a document (through `filter`, e.g. the core's `billing_pdf_document`) and
   * renders it.
   */
  async renderDocument(document: PdfDocumentModel, options: BuildPdfOptions = {}): Promise<RenderedPdf> {
    return this.#withLogo(document, (d) => buildPdfDefinition(d, options));
  }

  /** A client's statement of account, in the language of `tr`, with the documents' design. */
  renderStatement(statement: PdfStatementModel, tr: Translator): Promise<RenderedPdf> {
    return this.#withLogo(statement, async (s) => statementDefinition(s, tr));
  }

  /** Renders what `build` makes of `model`, with its company's logo verified, and without it if it cannot be drawn. */
  async #withLogo<M extends { company: PdfCompany }>(model: M, build: (m: M) => Promise<TDocumentDefinitions>): Promise<RenderedPdf> {
    model = await this.#verifiedLogo(model);
    const logo = model.company.logo;
    const logoKey = logo ? this.#hash(logo) : null;
    if (logoKey && this.#badLogos.has(logoKey)) return this.render(await build(withoutLogo(model)));
    try {
      return await this.render(await build(model));
    } catch (err) {
      if (!logoKey) throw err;
      // a logo the option's schema let through but the PDF library cannot draw (a corrupt image): the
      // document is rendered without it rather than not at all (issue 14), and the logo is not tried again
      const plain = await this.render(await build(withoutLogo(model)));
      this.#badLogos.add(logoKey);
      return plain;
    }
  }

  /**
   * A render never depends on an unverified image: a PNG logo is decoded in full and encoded again in a
   * bounded worker (remembered, so once per logo) and the clean image is drawn; one that fails is left
   * out. (A PNG with a second header once stalled the render worker for minutes.) JPEGs are embedded as
   * they are, not decoded, and a corrupt one is handled below.
   */
  async #verifiedLogo<M extends { company: PdfCompany }>(document: M): Promise<M> {
    const m = /^data:image\/png;base64,(.*)$/s.exec(document.company.logo ?? '');
    if (!m) return document;
    const clean = await cleanPng(Buffer.from(m[1]!, 'base64'), LOGO_BOUNDS);
    if (!clean.ok) return withoutLogo(document);
    return { ...document, company: { ...document.company, logo: `data:image/png;base64,${clean.bytes.toString('base64')}` } };
  }

  /** Renders a definition of plain JSON data, or returns the bytes of an identical one rendered before. */
  async render(definition: TDocumentDefinitions): Promise<RenderedPdf> {
    const json = canonicalJson(definition);
    const hash = this.#hash(json);
    const hit = this.#cache.get(hash);
    if (hit) {
      this.#hits++;
      return { ...hit, hash, source: 'cache' };
    }
    const running = this.#inFlight.get(hash);
    if (running) {
      this.#shared++;
      return { ...(await running), hash, source: 'shared' };
    }
    const rendering = (async () => {
      this.#renders++;
      const bytes = await this.pool.render(json);
      const pdf = { bytes, etag: `"${hash}"` };
      this.#cache.set(hash, pdf);
      return pdf;
    })();
    this.#inFlight.set(hash, rendering);
    try {
      return { ...(await rendering), hash, source: 'rendered' };
    } finally {
      this.#inFlight.delete(hash);
    }
  }

  /**
   * The ETag a definition renders with, without rendering it: a conditional request (`If-None-Match`)
   * can be answered 304 before any PDF work.
   */
  etagOf(definition: TDocumentDefinitions): string {
    return `"${this.#hash(canonicalJson(definition))}"`;
  }

  /** Starts the workers now rather than on the first render (each loads pdfmake and fonts, ~0.5 s). */
  warmUp(): Promise<void> {
    return this.pool.warmUp();
  }

  stats(): PdfRendererStats {
    return {
      renders: this.#renders,
      cacheHits: this.#hits,
      shared: this.#shared,
      cacheEntries: this.#cache.size,
      cacheBytes: this.#cache.bytes,
    };
  }

  /** Terminates the workers (renders still queued are rejected) and empties the cache. */
  async close(): Promise<void> {
    await this.pool.close();
    this.#cache.clear();
  }

  #hash(json: string): string {
    return createHash('sha256').update(this.#fingerprint).update('\n').update(json).digest('base64url');
  }
}

function withoutLogo<M extends { company: PdfCompany }>(document: M): M {
  const { logo: _logo, ...company } = document.company;
  return { ...document, company };
}
