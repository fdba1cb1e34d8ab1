import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LANGUAGES, reduceLanguage, type Language } from '@shared/contract/constants';
import { notFound } from '../core/http-error';
import { routePlugin } from '../core/route-plugin';
import { MANIFEST_PATH, readManifestTemplate, rewriteManifestUrls } from '../outlook/manifest';
import { escapeHtml, htmlPage } from '../pages/html';

type SupportTexts = { title: string; intro: string; steps: string[]; openWeb: string };
/** Read from the locale files (not imported: Node's ESM loader wants import attributes for JSON, which the bundlers here do not). */
const SUPPORT_TEXTS = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, (JSON.parse(readFileSync(new URL(`../../locales/${lang}/addin.json`, import.meta.url), 'utf8')) as { support: SupportTexts }).support]),
) as Record<Language, SupportTexts>;

/** Hashed bundles may be cached long; the HTML pages and the manifest never (they name the current files). */
const ASSET_MAX_AGE_S = 7 * 24 * 60 * 60;

/**
 * The Outlook add-in (DESIGN §7a: at /addin/): the manifest for this server's public URL,
 * the support page the manifest names, and the built task pane (webpack writes dist/addin,
 * beside the web client's dist/web).
 */
export const addinRoutes = routePlugin('kuvert-addin-routes', async (app) => {
  const root = resolve(app.config.webRoot, '..', 'addin');
  // Outlook frames these pages and loads office.js from Microsoft's CDN (core/security-headers.ts).
  const config = () => ({ access: 'public', securityHeaders: 'addin' }) as const;

  app.get(
    MANIFEST_PATH,
    { config: config(), schema: { summary: "The Outlook add-in manifest with this server's public URL", tags: ['addin'], produces: ['application/xml'] } },
    async (_request, reply) => {
      const xml = rewriteManifestUrls(readManifestTemplate(), app.config.publicUrl);
      return reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-disposition', 'attachment; filename="kuvert-outlook-manifest.xml"')
        .send(xml);
    },
  );

  app.get('/addin/support.html', { config: config(), schema: { hide: true } }, async (request, reply) => {
    const lang = reduceLanguage(request.headers['accept-language']?.split(',')[0] ?? 'en');
    const texts = SUPPORT_TEXTS[lang];
    const body = `<h1>${escapeHtml(texts.title)}</h1><p>${escapeHtml(texts.intro)}</p><ol>${texts.steps
      .map((step) => `<li>${escapeHtml(step)}</li>`)
      .join('')}</ol><p><a href="/">${escapeHtml(texts.openWeb)}</a></p>`;
    return reply.type('text/html; charset=utf-8').send(htmlPage({ lang, title: texts.title, body }));
  });

  app.get('/addin/*', { config: config(), schema: { hide: true } }, async (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    if (!file || file.includes('\0') || file.endsWith('.map')) throw notFound();
    if (file.endsWith('.html')) return reply.header('cache-control', 'no-cache').sendFile(file, root);
    return reply.sendFile(file, join(root), { maxAge: ASSET_MAX_AGE_S * 1000, immutable: /\.[0-9a-f]{8,}\./.test(file) });
  });
});
