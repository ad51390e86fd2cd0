import type { Translator } from '../i18n/translator.ts';
import { compiledTemplate } from './compiled-template.ts';
import { layoutValues, textFooter, type MailCompany, type MailTemplate } from './templates/index.ts';

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/**
 * One message from a template: the compiled HTML (compiled once per process) with this message's
 * values put in, and its plain-text part. No mjml compilation happens here after the first message.
 */
export async function renderMail<D>(template: MailTemplate<D>, data: D, company: MailCompany, tr: Translator): Promise<RenderedMail> {
  const compiled = await compiledTemplate(template.name, template.mjml);
  const parts = template.build(data, company, tr);
  const html = compiled.render({
    ...layoutValues(company),
    lang: tr.locale,
    subject: parts.subject,
    preview: parts.preview,
    ...parts.values,
  });
  return { subject: parts.subject, html, text: `${parts.text}\n\n${textFooter(company)}\n` };
}
