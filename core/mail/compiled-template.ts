import type { MjmlOptions } from 'mjml';
import { escapeHtml, Html } from '../http/html.ts';

/** A slot in a template's source: `{{name}}`, filled for each message. */
export const SLOT = /\{\{([a-z][a-z0-9_]*)\}\}/g;

/**
 * What fills the slots: text is HTML-escaped; `Html` (made with the `html` tag, which escapes what it
 * interpolates) goes in as it is. So a customer's name can never become markup in a mail.
 */
export type SlotValues = Record<string, string | Html>;

export const MJML_OPTIONS: MjmlOptions = {
  // a mistake in a template fails its first compilation (and the tests), not a customer's mail
  validationLevel: 'strict',
  keepComments: false,
  // no web fonts: the templates use system fonts, and a mail should not fetch from a font CDN
  fonts: {},
};

/**
 * An mjml template compiled to HTML once, split at its slots. mjml compiles the slots through as text
 * (`{{name}}` survives in text, attributes and the title), so each message costs one pass over the
 * pieces instead of an mjml compilation (bench/scenarios/mail.ts measures the difference).
 */
export class CompiledTemplate {
  /** Literal HTML around the slots: `literals.length === slots.length + 1`. */
  private readonly literals: string[];
  private readonly slots: string[];

  constructor(compiledHtml: string) {
    this.literals = [];
    this.slots = [];
    let last = 0;
    for (const m of compiledHtml.matchAll(SLOT)) {
      this.literals.push(compiledHtml.slice(last, m.index));
      this.slots.push(m[1]!);
      last = m.index + m[0].length;
    }
    this.literals.push(compiledHtml.slice(last));
  }

  /** Compiles mjml source (mjml is loaded on first use: importing it costs most of a second). */
  static async compile(source: string): Promise<CompiledTemplate> {
    const { default: mjml2html } = await import('mjml');
    const result = await mjml2html(source, MJML_OPTIONS);
    return new CompiledTemplate(result.html);
  }

  /** The slots this template has, each once. */
  get slotNames(): string[] {
    return [...new Set(this.slots)];
  }

  /** The HTML of one message. A slot without a value is a bug in the caller and throws. */
  render(values: SlotValues): string {
    let out = this.literals[0]!;
    for (let i = 0; i < this.slots.length; i++) {
      const v = values[this.slots[i]!];
      if (v === undefined) throw new Error(`mail template slot {{${this.slots[i]}}} has no value`);
      out += (v instanceof Html ? v.value : escapeHtml(v)) + this.literals[i + 1]!;
    }
    return out;
  }
}

/** Compiled templates by name, for the whole process: each is compiled once, on first use. */
const compiled = new Map<string, Promise<CompiledTemplate>>();

export function compiledTemplate(name: string, source: string): Promise<CompiledTemplate> {
  let pending = compiled.get(name);
  if (!pending) {
    pending = CompiledTemplate.compile(source);
    // a failed compilation is not cached: the next message tries again (and fails the same way, loudly)
    pending.catch(() => compiled.delete(name));
    compiled.set(name, pending);
  }
  return pending;
}
