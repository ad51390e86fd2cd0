import { describe, expect, it } from '@jest/globals';
import { escapeHtml, html, raw } from './html.ts';

describe('html', () => {
  it('escapes every interpolated value, in text and attributes', () => {
    const name = `<script>alert("x")</script>&'`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
  });

  it('keeps markup made by html or raw, joins arrays, drops null and false', () => {
    const items = ['a<b', 'c'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>${null}${false}${raw('<hr>')}${0}`.value).toBe('<ul><li>a&lt;b</li><li>c</li></ul><hr>0');
    expect(escapeHtml('"&"')).toBe('&quot;&amp;&quot;');
  });
});
