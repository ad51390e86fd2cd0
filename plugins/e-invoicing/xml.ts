// The few XML-writing helpers the mappings need: text and attributes escaped once, here, so no value of a
// document can break out of its element.

/** Escapes text for element content and double-quoted attributes; drops characters XML 1.0 forbids. */
export function escapeXml(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** A node: an element with attributes and children, text, or nothing (skipped). */
export type XmlNode = string | null | undefined | false | XmlNode[];

/**
 * `<name attrs>children</name>`; children that are strings were built by `el` or `text` (already
 * escaped). Elements whose children are all empty are written anyway: callers leave out what is absent.
 */
export function el(name: string, attrs: Record<string, string | undefined> | null, ...children: XmlNode[]): string {
  const a = attrs
    ? Object.entries(attrs)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => ` ${k}="${escapeXml(v!)}"`)
        .join('')
    : '';
  const body = flatten(children);
  return body === '' ? `<${name}${a}/>` : `<${name}${a}>${body}</${name}>`;
}

/** An element holding escaped text; nothing at all when the value is empty or absent. */
export function text(name: string, value: string | null | undefined, attrs: Record<string, string | undefined> | null = null): string {
  if (value === null || value === undefined || value === '') return '';
  return el(name, attrs, escapeXml(value));
}

function flatten(children: XmlNode[]): string {
  let out = '';
  for (const c of children) {
    if (Array.isArray(c)) out += flatten(c);
    else if (c) out += c;
  }
  return out;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
