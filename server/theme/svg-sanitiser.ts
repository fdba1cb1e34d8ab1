import createDOMPurify, { type WindowLike } from 'dompurify';
import { createRequire } from 'node:module';

/**
 * The SVG logo/favicon check: DOMPurify's allow-list (its SVG and SVG-filter profile, maintained
 * upstream) instead of a block-list of patterns, which entity-encoded `javascript:`, `<set
 * attributeName="onmouseover">`, a namespaced `html:script`, an external `<use href>` or a `<style>`
 * `@import` walked past (issue 28). On top of the profile: references (`href`, `xlink:href`,
 * `url(…)`) must stay inside the image (`#id`), an `<image>`/`<feImage>` may also embed a PNG, JPEG
 * or GIF as a `data:` URL, and a `<style>` may not `@import` or load anything by `url()`.
 *
 * The stored image is the sanitiser's XML serialisation, never the uploaded text, so what the
 * browser parses is what was checked. An upload the sanitiser had to change — anything it removed
 * besides an editor's bookkeeping — is refused, so an administrator sees why instead of a logo
 * that silently lost parts.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Raster images an `<image>` may embed; an SVG in a data URL would be a second document to check. */
const EMBEDDED_IMAGE = /^data:image\/(?:png|jpeg|gif);base64,[a-z0-9+/=\s]*$/i;
/** `url(` not followed by a fragment (`url(#gradient)` is the image's own). */
const EXTERNAL_URL = /url\(\s*(?:['"]\s*)?(?!#)/i;
/** Editor bookkeeping (Inkscape, Sodipodi, RDF licence metadata): dropped without refusing (it does nothing in a browser). */
const EDITOR_DATA = /^(?:inkscape|sodipodi|rdf|cc|dc):|^xmlns:(?:inkscape|sodipodi|rdf|cc|dc)$/i;

let purifier: ReturnType<typeof createDOMPurify> | undefined;
/** What the hooks removed during the current (synchronous) sanitize call; DOMPurify does not list it. */
let hookRemoved: string[] = [];
let xmlSerializer: { serializeToString(node: unknown): string } | undefined;

function instance() {
  if (purifier) return { purify: purifier, serializer: xmlSerializer! };
  // jsdom is loaded on the first logo check, not at start: importing it costs every server process
  // (and every integration-test file) about 0.4 CPU-s, and most never see an SVG.
  const { JSDOM } = createRequire(import.meta.url)('jsdom') as typeof import('jsdom');
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as WindowLike);
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue.trim();
    if (name === 'href' || name === 'xlink:href') {
      const embedded = (node.nodeName.toLowerCase() === 'image' || node.nodeName.toLowerCase() === 'feimage') && EMBEDDED_IMAGE.test(value);
      if (!value.startsWith('#') && !embedded) {
        data.keepAttr = false;
        hookRemoved.push(data.attrName);
      }
    } else if (EXTERNAL_URL.test(value) || /@import/i.test(value)) {
      data.keepAttr = false;
      hookRemoved.push(data.attrName);
    }
  });
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && (/@import/i.test(node.textContent ?? '') || EXTERNAL_URL.test(node.textContent ?? ''))) {
      node.parentNode?.removeChild(node);
      hookRemoved.push('style');
    }
  });
  purifier = purify;
  xmlSerializer = new window.XMLSerializer();
  return { purify, serializer: xmlSerializer };
}

export type SvgSanitising = { ok: true; svg: string } | { ok: false; removed: string[] };

/** The sanitised SVG document, or what the allow-list had to remove (element and attribute names, at most 10). */
export function sanitiseSvg(text: string): SvgSanitising {
  const { purify, serializer } = instance();
  // An internal DTD subset could define entities the allow-list never sees expanded.
  if (/<!ENTITY|<!DOCTYPE[^>]*\[/i.test(text)) return { ok: false, removed: ['<!ENTITY>'] };
  hookRemoved = [];
  const body = purify.sanitize(text, { USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'], RETURN_DOM: true });
  const removed = purify.removed
    .map((r) => ('element' in r ? (r.element?.nodeName ?? '') : `${r.attribute?.name ?? ''}`))
    .concat(hookRemoved)
    .filter((name) => name !== '' && name.toUpperCase() !== 'BODY' && !EDITOR_DATA.test(name));
  const roots = [...body.children];
  const root = roots[0];
  if (roots.length !== 1 || !root || root.namespaceURI !== SVG_NS || root.localName !== 'svg') removed.push('(no single <svg> root)');
  if (removed.length > 0) return { ok: false, removed: [...new Set(removed)].slice(0, 10) };
  return { ok: true, svg: serializer.serializeToString(root) };
}
