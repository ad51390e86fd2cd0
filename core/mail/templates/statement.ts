import { greeting, layout } from './layout.ts';
import type { MailTemplate } from './template.ts';

export interface StatementMailData {
  customerName: string;
  currency: string;
  from: string;
  to: string;
  /** The closing balance, an exact decimal string. */
  closing: string;
  /** The attached PDF's file name. */
  file: string;
}

/** To the customer: their statement of account, the PDF attached. */
export const statementMail: MailTemplate<StatementMailData> = {
  name: 'statement',
  audience: 'customer',
  mjml: layout(`
        <mj-text>{{greeting}}</mj-text>
        <mj-text>{{intro}}</mj-text>
        <mj-text font-size="17px" font-weight="600">{{balance}}</mj-text>
        <mj-text font-size="13px" color="#6b7280">{{attached}}</mj-text>`),
  build(d, company, tr) {
    const intro = tr.t('mail.statement_intro', { company: company.name, from: tr.date(d.from), to: tr.date(d.to) });
    const balance = tr.t('mail.statement_balance', { amount: tr.money(d.closing, d.currency), date: tr.date(d.to) });
    const attached = tr.t('mail.statement_attached', { file: d.file });
    return {
      subject: tr.t('mail.statement_subject', { company: company.name }),
      preview: intro,
      values: { greeting: greeting(d.customerName, tr), intro, balance, attached },
      text: [greeting(d.customerName, tr), '', intro, '', balance, '', attached].join('\n'),
    };
  },
};
