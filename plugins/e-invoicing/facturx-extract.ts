// The XML inside a Factur-X / ZUGFeRD PDF, read defensively: the PDF is parsed by pdf-lib (in a bounded
// worker: see reader.ts), only an embedded file with a known invoice name (or, failing that, the only XML
// one) is taken, and its stream is inflated with a hard output cap, so a deflate bomb stops at MAX_XML
// bytes. The name tree is walked once per node, at most MAX_TREE_NODES of them: a tree whose kids refer
// back to themselves (a few bytes) would otherwise be walked kids^depth times. Its leaves' entries
// count against the same budget.
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFString, PDFHexString } from 'pdf-lib';
import { unreadable } from './unreadable.ts';

/** The largest embedded XML read. */
export const MAX_XML = 4 * 1024 * 1024;

/** Nodes and entries of the embedded-files name tree visited at most; a real one has a handful. */
export const MAX_TREE_NODES = 10_000;

const INVOICE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'order-x.xml'];

export async function extractFacturX(bytes: Buffer): Promise<string> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: false });
  } catch {
    throw unreadable('The PDF could not be read.');
  }
  const files = embeddedFiles(doc);
  const chosen = files.find((f) => INVOICE_NAMES.includes(f.name.toLowerCase())) ?? (files.length === 1 ? files[0] : undefined);
  if (!chosen) throw unreadable('The PDF carries no factur-x.xml (it is not a Factur-X or ZUGFeRD invoice).');
  return new TextDecoder('utf-8', { fatal: false }).decode(streamBytes(chosen.stream)).replace(/^\uFEFF/, '');
}

function embeddedFiles(doc: PDFDocument): Array<{ name: string; stream: PDFRawStream }> {
  const out: Array<{ name: string; stream: PDFRawStream }> = [];
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const seen = new Set<PDFDict>();
  let work = 0;
  const count = () => {
    if (++work > MAX_TREE_NODES) throw unreadable(`The PDF's attachment tree has more than ${MAX_TREE_NODES} entries.`);
  };
  const visit = (node: PDFDict | undefined, depth: number) => {
    if (!node || seen.has(node) || depth > 16 || out.length > 64) return;
    seen.add(node);
    count();
    const leaf = node.lookupMaybe(PDFName.of('Names'), PDFArray);
    if (leaf) {
      for (let i = 0; i + 1 < leaf.size(); i += 2) {
        count();
        const spec = leaf.lookupMaybe(i + 1, PDFDict);
        const ef = spec?.lookupMaybe(PDFName.of('EF'), PDFDict);
        const stream = ef?.lookup(PDFName.of('F'));
        if (!(stream instanceof PDFRawStream)) continue;
        const name = textOf(spec!.lookup(PDFName.of('UF'))) || textOf(spec!.lookup(PDFName.of('F'))) || textOf(leaf.lookup(i));
        out.push({ name, stream });
      }
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let i = 0; kids && i < kids.size(); i++) {
      count();
      visit(kids.lookupMaybe(i, PDFDict), depth + 1);
    }
  };
  visit(tree, 0);
  // also files attached only through the catalog's AF array
  const af = doc.catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  for (let i = 0; af && i < af.size() && out.length <= 64; i++) {
    count();
    const spec = af.lookupMaybe(i, PDFDict);
    const stream = spec?.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
    if (stream instanceof PDFRawStream && !out.some((f) => f.stream === stream)) {
      out.push({ name: textOf(spec!.lookup(PDFName.of('UF'))) || textOf(spec!.lookup(PDFName.of('F'))), stream });
    }
  }
  return out;
}

function textOf(v: unknown): string {
  return v instanceof PDFString || v instanceof PDFHexString ? v.decodeText() : '';
}

function streamBytes(stream: PDFRawStream): Uint8Array {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFName ? [filter] : filter instanceof PDFArray ? filter.asArray() : [];
  let data: Uint8Array = stream.contents;
  if (data.length > MAX_XML) throw unreadable('The embedded invoice is too large.');
  for (const f of filters) {
    if (!(f instanceof PDFName) || f.asString() !== '/FlateDecode') throw unreadable('The embedded invoice uses an unsupported encoding.');
    try {
      data = inflateSync(data, { maxOutputLength: MAX_XML });
    } catch {
      throw unreadable('The embedded invoice could not be decompressed (or is larger than 4 MiB once decompressed).');
    }
  }
  return data;
}
