import { describe, expect, it } from 'vitest';
import { sanitiseSvg } from './svg-sanitiser';

const NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';

/** A logo as design tools export it: declaration, comment, style classes, a gradient, a local <use>, text, a filter. */
const LOGO = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generator: a design tool -->
<svg ${NS} xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" version="1.1" viewBox="0 0 120 40" inkscape:version="1.3">
  <defs>
    <style>.a{fill:url(#grad);} .b{font-family:Arial, sans-serif;font-size:12px}</style>
    <linearGradient id="grad" x1="0" x2="1"><stop offset="0" stop-color="#19853F"/><stop offset="1" stop-color="#0B7530"/></linearGradient>
    <filter id="shadow"><feGaussianBlur stdDeviation="1"/><feOffset dx="1" dy="1"/></filter>
    <path id="mark" d="M0 0h10v10H0z"/>
  </defs>
  <title>Acme &amp; Co</title>
  <rect class="a" width="120" height="40" rx="4" filter="url(#shadow)"/>
  <use xlink:href="#mark" x="5" y="5"/>
  <use href="#mark" x="20" y="5"/>
  <image width="8" height="8" href="data:image/png;base64,iVBORw0KGgo="/>
  <text class="b" x="40" y="25" fill="#fff">Acme</text>
</svg>`;

describe('the SVG logo allow-list (issue 28)', () => {
  it('keeps a normal logo: shapes, styles, gradient, filter, local <use>, an embedded PNG, text', () => {
    const result = sanitiseSvg(LOGO);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    for (const part of ['viewBox="0 0 120 40"', '<linearGradient id="grad"', '<feGaussianBlur', 'xlink:href="#mark"', 'href="#mark"', '.a{fill:url(#grad);}', 'data:image/png;base64', 'Acme &amp; Co', '>Acme</text>']) {
      expect(result.svg).toContain(part);
    }
    expect(result.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(result.svg).not.toContain('inkscape');
    // What is stored is sanitised again to itself (a fixed point).
    expect(sanitiseSvg(result.svg)).toEqual(result);
  });

  it.each([
    ['entity-encoded javascript: in a link', `<svg ${NS}><a xlink:href="&#106;avascript:alert(1)"><rect width="1" height="1"/></a></svg>`, 'xlink:href'],
    ['entity-encoded javascript: (hex, href)', `<svg ${NS}><a href="&#x6A;&#x61;vascript&#58;alert(1)"><rect width="1" height="1"/></a></svg>`, 'href'],
    ['<set attributeName="onmouseover">', `<svg ${NS}><rect width="9" height="9"><set attributeName="onmouseover" to="alert(1)"/></rect></svg>`, 'set'],
    ['<animate> turning a link into javascript:', `<svg ${NS}><a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a></svg>`, 'animate'],
    ['a namespaced html:script', `<svg ${NS} xmlns:html="http://www.w3.org/1999/xhtml"><html:script>alert(1)</html:script></svg>`, 'html:script'],
    ['an external <use href>', `<svg ${NS}><use href="https://evil.test/sprite.svg#a"/></svg>`, 'href'],
    ['an external <use xlink:href>', `<svg ${NS}><use xlink:href="//evil.test/sprite.svg#a"/></svg>`, 'xlink:href'],
    ['<style> @import', `<svg ${NS}><style>@import url(https://evil.test/x.css); rect{fill:red}</style><rect width="1" height="1"/></svg>`, 'style'],
    ['<style> with an external url()', `<svg ${NS}><style>rect{fill:url("https://evil.test/x.svg#p")}</style></svg>`, 'style'],
    ['a style attribute loading a URL', `<svg ${NS}><rect width="1" height="1" style="fill:url(https://evil.test/p)"/></svg>`, 'style'],
    ['an external image', `<svg ${NS}><image href="https://evil.test/track.png" width="1" height="1"/></svg>`, 'href'],
    ['an SVG in a data URL', `<svg ${NS}><image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" width="1" height="1"/></svg>`, 'href'],
    ['<script>', `<svg ${NS}><script>alert(1)</script></svg>`, 'script'],
    ['an event handler', `<svg ${NS} onload="alert(1)"/>`, 'onload'],
    ['<foreignObject>', `<svg ${NS}><foreignObject><iframe src="https://evil.test"/></foreignObject></svg>`, 'foreignObject'],
    ['an entity declaration', `<!DOCTYPE svg [<!ENTITY x "javascript:alert(1)">]><svg ${NS}><a href="&x;"><text>x</text></a></svg>`, '<!ENTITY>'],
    ['no <svg> root', '<div>hello</div>', '(no single <svg> root)'],
  ])('refuses %s, naming what it removed', (_case, svg, removed) => {
    const result = sanitiseSvg(svg);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.removed).toContain(removed);
  });
});
