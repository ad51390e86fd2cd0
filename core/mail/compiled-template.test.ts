import { describe, expect, it } from '@jest/globals';
import { html } from '../http/html.ts';
import { CompiledTemplate, compiledTemplate } from './compiled-template.ts';

describe('CompiledTemplate', () => {
  const t = new CompiledTemplate('<a href="{{link}}">{{label}}</a>{{body}}<p>{{label}}</p>');

  it('escapes text, keeps Html as written, and fills a slot every time it appears', () => {
    expect(t.slotNames).toEqual(['link', 'label', 'body']);
    expect(t.render({ link: 'https://x.test/?a=1&b="2"', label: '<b>Zoë</b>', body: html`<em>${'a & b'}</em>` })).toBe(
      '<a href="https://x.test/?a=1&amp;b=&quot;2&quot;">&lt;b&gt;Zoë&lt;/b&gt;</a><em>a &amp; b</em><p>&lt;b&gt;Zoë&lt;/b&gt;</p>',
    );
  });

  it('never reads a value as a template: a value that looks like a slot stays text', () => {
    expect(t.render({ link: '{{label}}', label: '{{body}}', body: '' })).toBe('<a href="{{label}}">{{body}}</a><p>{{body}}</p>');
  });

  it('throws on a slot without a value', () => {
    expect(() => t.render({ link: '', label: '' })).toThrow('{{body}}');
  });

  it('compiles mjml once per name and keeps the slots through it, in text, attributes and the title', async () => {
    const source =
      '<mjml><mj-head><mj-title>{{subject}}</mj-title></mj-head><mj-body><mj-section><mj-column>' +
      '<mj-button href="{{link}}">Open</mj-button><mj-text>{{greeting}}</mj-text></mj-column></mj-section></mj-body></mjml>';
    const first = compiledTemplate('unit-test', source);
    expect(compiledTemplate('unit-test', source)).toBe(first);
    const compiled = await first;
    expect(compiled.slotNames.sort()).toEqual(['greeting', 'link', 'subject']);
    const out = compiled.render({ subject: 'Hi & bye', link: 'https://x.test/?k=1&j=2', greeting: 'Hello <you>' });
    expect(out).toContain('<title>Hi &amp; bye</title>');
    expect(out).toContain('href="https://x.test/?k=1&amp;j=2"');
    expect(out).toContain('Hello &lt;you&gt;');
  });

  it('rejects invalid mjml at its first compilation', async () => {
    await expect(compiledTemplate('unit-test-bad', '<mjml><mj-body><mj-column/></mj-body></mjml>')).rejects.toThrow();
  });
});
