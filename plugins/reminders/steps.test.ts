import { describe, expect, it } from '@jest/globals';
import { DEFAULT_STEPS, fillHtml, fillText, normalizeSteps, plainText, type TagValues } from './steps.ts';

const values: TagValues = {
  invoice_number: 'INV-0007',
  client_name: 'Tom & <Jerry>',
  total_amount: '$1,500.00',
  amount_due: '$1,000.00',
  due_date: '24 Nov 2026',
  invoice_url: 'https://billing.test/billing/invoice/7?key=a&b',
  company_name: 'Acme "Studio"',
};

describe('reminder steps', () => {
  it('default to -3, +1, +7 and +14 days', () => {
    expect(DEFAULT_STEPS.map((s) => s.offset_days)).toEqual([-3, 1, 7, 14]);
  });

  it('keep one step per offset (the first), in offset order', () => {
    const steps = normalizeSteps([
      { offset_days: 7, subject: 'a', body: 'a' },
      { offset_days: -1, subject: 'b', body: 'b' },
      { offset_days: 7, subject: 'c', body: 'c' },
    ]);
    expect(steps.map((s) => [s.offset_days, s.subject])).toEqual([
      [-1, 'b'],
      [7, 'a'],
    ]);
  });
});

describe('tags', () => {
  it('fill the text as it is, leaving unknown tags alone', () => {
    expect(fillText('{{invoice_number}} for {{ client_name }}: {{nope}}', values)).toBe('INV-0007 for Tom & <Jerry>: {{nope}}');
  });

  it('escape every value in the HTML part, keep the step’s markup and line breaks, and link the URL', () => {
    const out = fillHtml('<p>Dear {{client_name}}</p>\nfrom {{company_name}}\n{{invoice_url}}', values).value;
    expect(out).toBe(
      '<p>Dear Tom &amp; &lt;Jerry&gt;</p><br>\nfrom Acme &quot;Studio&quot;<br>\n' +
        '<a href="https://billing.test/billing/invoice/7?key=a&amp;b">https://billing.test/billing/invoice/7?key=a&amp;b</a>',
    );
  });

  it('make the text part from a body with markup', () => {
    expect(plainText('<p>Hello</p>Line<br>next &amp; last')).toBe('Hello\n\nLine\nnext & last');
  });
});
