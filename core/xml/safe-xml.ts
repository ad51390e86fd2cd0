import { BillingError } from '../errors.ts';
// A small element tree from untrusted XML (e-invoices, bank statements), with what hostile XML needs
// refused outright: any DOCTYPE (no DTD means no entity can be declared, so neither "billion laughs"
// expansion nor an external entity reading a local file or a URL is possible), more than MAX_DEPTH
// levels, more than `maxNodes` elements. The parser (saxes) expands only XML's five predefined entities
// and character references; an undeclared entity is an error. Business documents never need a DTD.
//
// Bytes are decoded as they are parsed, a slice at a time, so a large file (an invoice carrying a PDF,
// up to 20 MiB) is never also held as one string; and the text of elements nobody reads (an invoice's
// base64 attachments) can be skipped rather than kept in the tree. Callers run it inside a bounded
// worker (runBounded), which bounds its time and memory.
import { SaxesParser } from 'saxes';

export const MAX_DEPTH = 64;
export const MAX_NODES = 200_000;

export interface SafeXmlOptions {
  /** The caller's own 4xx for a refused or malformed file (e.g. `billing_einvoice_unreadable`). */
  refuse(message: string): BillingError;
  /** Elements (local names) whose text is not kept: attachments' bytes. */
  skipText?: ReadonlySet<string>;
  /** At most this many elements (default MAX_NODES). */
  maxNodes?: number;
}
/** Bytes decoded and parsed at a time. */
const SLICE = 64 * 1024;

export interface XmlElement {
  /** Local name, without prefix. */
  name: string;
  ns: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Parses `xml` (text, or UTF-8 bytes) into a tree, or throws `options.refuse(why)`. */
export function parseXml(xml: string | Uint8Array, options: SafeXmlOptions): XmlElement {
  const { refuse: unreadable, skipText } = options;
  const maxNodes = options.maxNodes ?? MAX_NODES;
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let nodes = 0;
  let failure: Error | null = null;
  parser.on('doctype', () => {
    throw unreadable('The file declares a DTD (DOCTYPE); the documents read here never do, and it is refused.');
  });
  parser.on('opentag', (tag) => {
    if (++nodes > maxNodes) throw unreadable(`The file has more than ${maxNodes} elements.`);
    if (stack.length >= MAX_DEPTH) throw unreadable(`The file nests elements more than ${MAX_DEPTH} deep.`);
    const attrs: Record<string, string> = {};
    for (const [, a] of Object.entries(tag.attributes)) {
      const attr = a as { local: string; value: string };
      attrs[attr.local] = attr.value;
    }
    const node: XmlElement = { name: tag.local ?? tag.name, ns: tag.uri ?? '', attrs, children: [], text: '' };
    if (stack.length) stack[stack.length - 1]!.children.push(node);
    else root = node;
    stack.push(node);
  });
  parser.on('text', (t) => {
    const top = stack[stack.length - 1];
    if (top && !skipText?.has(top.name)) top.text += t;
  });
  parser.on('cdata', (t) => {
    if (stack.length) stack[stack.length - 1]!.text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('error', (e) => {
    failure ??= e;
  });
  try {
    if (typeof xml === 'string') parser.write(xml);
    else writeUtf8(parser, xml, unreadable);
    parser.close();
  } catch (e) {
    if (e instanceof BillingError) throw e;
    throw unreadable(`The file is not well-formed XML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (failure) throw unreadable(`The file is not well-formed XML: ${(failure as Error).message.split('\n')[0]}`);
  if (!root) throw unreadable('The file holds no XML element.');
  return root;
}

/** Feeds UTF-8 bytes to the parser a slice at a time (a BOM is dropped); malformed UTF-8 is refused. */
function writeUtf8(parser: SaxesParser, bytes: Uint8Array, unreadable: SafeXmlOptions['refuse']): void {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for (let at = 0; at < bytes.length; at += SLICE) {
      parser.write(decoder.decode(bytes.subarray(at, at + SLICE), { stream: at + SLICE < bytes.length }));
    }
    if (!bytes.length) parser.write('');
  } catch (e) {
    if (e instanceof TypeError) throw unreadable('The file is neither a PDF nor UTF-8 text.');
    throw e;
  }
}

/** The first child named `name` (local name), or null. */
export function child(e: XmlElement | null | undefined, name: string): XmlElement | null {
  return e?.children.find((c) => c.name === name) ?? null;
}

export function children(e: XmlElement | null | undefined, name: string): XmlElement[] {
  return e ? e.children.filter((c) => c.name === name) : [];
}

/** Follows a path of local names (`a/b/c`), first match at each step. */
export function at(e: XmlElement | null | undefined, path: string): XmlElement | null {
  let cur: XmlElement | null = e ?? null;
  for (const part of path.split('/')) cur = child(cur, part);
  return cur;
}

/** The trimmed text at `path`, or '' when absent. */
export function textAt(e: XmlElement | null | undefined, path: string): string {
  return at(e, path)?.text.trim() ?? '';
}
