/**
 * HTML that is safe by construction: `html\`<p>${text}</p>\`` escapes every interpolated value unless it
 * is itself Html (made by `html` or, for markup the code owns, `raw`). Arrays are joined. Screens build
 * their pages only with this, so whatever a user typed is printed as text.
 */
export class Html {
  readonly value: string;

  constructor(value: string) {
    this.value = value;
  }

  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const SPECIAL = /[&<>"']/;

export function escapeHtml(text: string): string {
  // most values (titles, nonces, links) have nothing to escape: no replacement pass, no new string
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : text;
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Markup the code itself wrote (never user input). */
export function raw(markup: string): Html {
  return new Html(markup);
}
