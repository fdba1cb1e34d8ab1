import { reduceLanguage } from '@shared/contract/constants';
import { z } from 'zod';
import { PAGE_STYLESHEET, PAGE_STYLESHEET_PATH } from '../pages/html';
import { routePlugin } from '../core/route-plugin';

/** Cookie holding the language legacy pages render in (set by keepAlive.html?lang=). */
export const LANGUAGE_COOKIE = 'KUVERT_LANG';
/** A year: the language choice outlives sessions. */
const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * Legacy pages under /webui (SPEC §2, DESIGN §9): none 404s. keepAlive.html and the
 * stylesheet are served here (logo and favicon by server/theme); the others lead to the SPA screen that replaced them.
 */
const LEGACY_REDIRECTS: Record<string, string> = {
  '/webui': '/',
  '/webui/': '/',
  '/webui/index.html': '/',
  '/webui/welcome': '/webui/wizard',
  '/webui/login': '/auth/login',
  '/webui/sso': '/auth/login',
  // The sign-up page (issue 17 §1); it says "not enabled" while self-registration is off.
  '/webui/signup': '/auth/signup',
  '/webui/twoFactor': '/auth/totp-authentication',
  '/webui/settings': '/settings',
  '/webui/inbox': '/secumails/inbox',
  '/webui/submitbox/settings': '/secumails/submit-box',
  '/webui/admin/users': '/admin',
};

export const legacyRoutes = routePlugin('kuvert-legacy-routes', async (app) => {
  app.get(
    '/webui/keepAlive.html',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Keeps the session alive; with ?lang= also sets the language cookie of legacy pages (the account keeps its language: POST /user/updateLoggedInUser changes that)',
        tags: ['legacy'],
        querystring: z.object({ lang: z.string().max(35).optional() }),
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      // The session's idle time already slid when the access hook resolved it. A GET changes
      // nothing on the server (a cross-site <img> could send it): the language only goes into the
      // browser's own cookie; the account's language is POST /user/updateLoggedInUser (SPEC §7).
      const lang = request.query.lang ? reduceLanguage(request.query.lang) : undefined;
      if (lang) void reply.setCookie(LANGUAGE_COOKIE, lang, { path: '/', sameSite: 'lax', maxAge: LANGUAGE_COOKIE_MAX_AGE_S });
      void reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const state = request.user ? 'alive' : 'signed-out';
      return `<!doctype html><html lang="${lang ?? 'en'}"><head><meta charset="utf-8"><title>keepAlive</title></head><body data-session="${state}">OK</body></html>`;
    },
  );

  // /webui/logo, /webui/logo.svg and /webui/favicon.ico follow the theme: server/theme/theme-routes.ts.
  app.get(PAGE_STYLESHEET_PATH, { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=86400').send(PAGE_STYLESHEET),
  );

  app.get('/webui/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const [path, query] = request.url.split('?') as [string, string | undefined];
    const target = LEGACY_REDIRECTS[path.replace(/\/+$/, '') || '/'] ?? LEGACY_REDIRECTS[path] ?? '/';
    // The query goes along (e.g. `/webui/inbox?settings=true`, `?lang=`): the target page reads it.
    return reply.redirect(query ? `${target}?${query}` : target, 302);
  });
  app.get('/webui', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => reply.redirect('/', 302));

  app.get('/favicon.ico', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => reply.redirect('/webui/favicon.ico', 301));
});
