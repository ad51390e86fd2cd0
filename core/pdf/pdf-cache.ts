// Rendered PDFs by content hash, least recently used evicted first, bounded by their total size.

export interface CachedPdf {
  bytes: Buffer;
  etag: string;
}

export class PdfCache {
  readonly maxBytes: number;
  #entries = new Map<string, CachedPdf>(); // insertion order = recency order
  #bytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(hash: string): CachedPdf | undefined {
    const hit = this.#entries.get(hash);
    if (hit) {
      this.#entries.delete(hash);
      this.#entries.set(hash, hit);
    }
    return hit;
  }

  /** Stores an entry, evicting the least recently used ones; an entry larger than the bound is not kept. */
  set(hash: string, pdf: CachedPdf): void {
    this.delete(hash);
    if (pdf.bytes.byteLength > this.maxBytes) return;
    this.#entries.set(hash, pdf);
    this.#bytes += pdf.bytes.byteLength;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes.byteLength;
    }
  }

  delete(hash: string): void {
    const old = this.#entries.get(hash);
    if (!old) return;
    this.#entries.delete(hash);
    this.#bytes -= old.bytes.byteLength;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }
}
