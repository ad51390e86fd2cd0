import { html, raw, type Html } from '../../core/plugin-api.ts';
import { defaultSteps, ENGLISH } from './texts.ts';

import type { ReminderStep } from './step.ts';

export type { ReminderStep } from './step.ts';

/** The default steps (docs/reminders.md): three days before the due date, then one, seven and fourteen days after it. */
export const DEFAULT_STEPS: ReminderStep[] = defaultSteps(ENGLISH);

/** The steps to apply: one per offset (the first one given wins), in offset order. */
export function normalizeSteps(steps: readonly ReminderStep[]): ReminderStep[] {
  const byOffset = new Map<number, ReminderStep>();
  for (const s of steps) if (!byOffset.has(s.offset_days)) byOffset.set(s.offset_days, s);
  return [...byOffset.values()].sort((a, b) => a.offset_days - b.offset_days);
}

/** The tags of a step's subject and body (docs/reminders.md), as plain text values. */
export interface TagValues {
  invoice_number: string;
  client_name: string;
  total_amount: string;
  amount_due: string;
  due_date: string;
  invoice_url: string;
  company_name: string;
}

const TAG = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** Tags replaced by their text: for the subject and the text part. Unknown tags stay as written. */
export function fillText(template: string, values: TagValues): string {
  return template.replace(TAG, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as keyof TagValues] : whole));
}

/**
 * The HTML part: the step's body is the site's own markup (written by an administrator), line breaks
 * kept; every value put into it is escaped, so a client named `<script>` stays text. The public link
 * becomes a link.
 */
export function fillHtml(template: string, values: TagValues): Html {
  const parts: Html[] = [];
  let last = 0;
  for (const m of template.matchAll(TAG)) {
    parts.push(raw(template.slice(last, m.index)));
    const name = m[1]!;
    if (!Object.hasOwn(values, name)) parts.push(raw(m[0]));
    else if (name === 'invoice_url') parts.push(html`<a href="${values.invoice_url}">${values.invoice_url}</a>`);
    else parts.push(html`${values[name as keyof TagValues]}`);
    last = m.index + m[0].length;
  }
  parts.push(raw(template.slice(last)));
  return raw(html`${parts}`.value.replace(/\r?\n/g, '<br>\n'));
}

/** The text part of a body that may hold markup: tags dropped, breaks kept. */
export function plainText(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
