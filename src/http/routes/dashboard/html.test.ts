import { describe, expect, it } from 'vitest';
import { html, raw } from './html.js';

describe('dashboard html template', () => {
  it('escapes every interpolated value, nested templates and raw markup excepted', () => {
    const name = `<img src=x onerror="alert('1')">&\``;
    const out = html`<p title="${name}">${name}${[html`<b>${name}</b>`, raw('<i>ok</i>')]}${null}${undefined}${false}${0}</p>`.value;
    expect(out).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;">&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;' +
        '<b>&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;</b><i>ok</i>0</p>',
    );
  });
});
