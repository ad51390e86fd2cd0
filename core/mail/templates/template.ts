import type { Translator } from '../../i18n/translator.ts';
import type { SlotValues } from '../compiled-template.ts';

/** The mails the service sends; the name is the `billing_email` filter's second argument. */
export type TemplateName =
  'invoice_available' | 'quote_available' | 'payment_received' | 'payment_receipt' | 'quote_answered' | 'payment_reminder' | 'statement';

/** The sender's details, from the options `company_name`, `company_address`, `company_email`, `company_logo_url`. */
export interface MailCompany {
  name: string;
  address: string;
  email: string;
  /** What the mail's `<img src>` points at: `cid:…` for a logo carried in the mail, an https URL, or '' for none. */
  logoSrc: string;
}

/** One message's own parts; the layout (company header and footer) is added around them. */
export interface MailParts {
  subject: string;
  /** The inbox preview line. */
  preview: string;
  /** The body's slots. */
  values: SlotValues;
  /** The plain-text body, without the company footer. */
  text: string;
}

/**
 * A mail template: mjml source (the shared layout around its body, with `{{slots}}`), compiled once per
 * process, and the function that turns one message's data into slot values and the text part.
 */
export interface MailTemplate<D> {
  readonly name: TemplateName;
  /** Who reads it: a customer's mail is in the document's language, the administrator's stays in English. */
  readonly audience: 'customer' | 'administrator';
  readonly mjml: string;
  build(data: D, company: MailCompany, tr: Translator): MailParts;
}
