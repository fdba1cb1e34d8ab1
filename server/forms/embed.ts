import { API_BASE } from '@shared/contract/constants';
import { FORM_EMBED_MESSAGE, FORM_EMBED_SCRIPT_PATH, FORM_EMBED_SETTING_KEYS, originAllowed, parseOriginList } from '@shared/contract/form-embed';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { notFound } from '../core/http-error';
import { ACCESS_PLUGIN } from '../core/route-plugin';

/**
 * Embedding public forms in other sites (shared/contract/form-embed.ts). The two admin settings
 * are read per request, so a change holds at once on every server of a cluster:
 * - `/form/{formId}` (the public page) carries `frame-ancestors` with exactly the listed
 *   origins (else `'none'`, and `X-Frame-Options: DENY` as on every other page);
 * - `/api/2/public-forms/*` answers CORS (and its preflight) for exactly the listed origins —
 *   no other API path ever does, and no credentials are allowed across origins;
 * - `/form-embed.js`: the script embed (frame + height from the page's postMessage).
 */

const PUBLIC_FORMS_API = `${API_BASE}/public-forms/`;
const CORS_MAX_AGE_S = 600;

async function originList(app: FastifyInstance, key: string): Promise<string[]> {
  return parseOriginList(await app.settings.get<string>(key));
}

/** The page's CSP with its frame-ancestors directive replaced by the allowed origins. */
export function withFrameAncestors(csp: string, ancestors: readonly string[]): string {
  const directive = `frame-ancestors ${ancestors.length > 0 ? ancestors.join(' ') : "'none'"}`;
  return /frame-ancestors [^;]*/.test(csp) ? csp.replace(/frame-ancestors [^;]*/, directive) : `${csp}; ${directive}`;
}

async function allowFraming(app: FastifyInstance, reply: FastifyReply): Promise<void> {
  const ancestors = await originList(app, FORM_EMBED_SETTING_KEYS.frameAncestors);
  const csp = String(reply.getHeader('content-security-policy') ?? '');
  void reply.header('content-security-policy', withFrameAncestors(csp, ancestors));
  // X-Frame-Options knows no list: frame-ancestors decides (browsers prefer it when both are there).
  if (ancestors.length > 0) void reply.removeHeader('x-frame-options');
}

/** CORS for the public form endpoints: the allowed origin is echoed, others get no CORS header at all. */
async function publicFormsCors(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const origin = request.headers.origin;
  void reply.header('vary', 'Origin');
  if (typeof origin !== 'string' || !originAllowed(await originList(app, FORM_EMBED_SETTING_KEYS.corsOrigins), origin)) return false;
  void reply.header('access-control-allow-origin', origin);
  // Another site's script reads the answers, not our page: it may load them.
  void reply.header('cross-origin-resource-policy', 'cross-origin');
  if (request.method !== 'OPTIONS') return false;
  // The preflight of an allowed origin; the route table has no OPTIONS routes (the 404 handler's hook answers).
  await reply
    .code(204)
    .header('access-control-allow-methods', 'GET, POST')
    .header('access-control-allow-headers', 'content-type')
    .header('access-control-max-age', String(CORS_MAX_AGE_S))
    .send();
  return true;
}

const embedScript = (message: string) => `/* Kuvert form embed: <script src=".../form-embed.js" data-form="FORM-ID" data-query="plain=1"></script> */
(function () {
  var script = document.currentScript;
  if (!script || !script.getAttribute('data-form')) return;
  var origin = new URL(script.src).origin;
  var url = new URL('/form/' + encodeURIComponent(script.getAttribute('data-form')), origin);
  new URLSearchParams(script.getAttribute('data-query') || '').forEach(function (value, key) { url.searchParams.append(key, value); });
  url.searchParams.set('embed', '1');
  var frame = document.createElement('iframe');
  frame.src = url.href;
  frame.title = script.getAttribute('data-title') || 'Form';
  frame.style.width = '100%';
  frame.style.border = '0';
  frame.style.height = (Number(script.getAttribute('data-height')) || 600) + 'px';
  script.parentNode.insertBefore(frame, script.nextSibling);
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.origin !== origin || event.source !== frame.contentWindow || !data || data.type !== ${JSON.stringify(message)}) return;
    if (typeof data.height === 'number' && data.height > 0 && data.height < 100000) frame.style.height = Math.ceil(data.height) + 'px';
  });
})();
`;

/** Not encapsulated: the CORS hook must see the public form routes (formRoutes) and the 404 handler (preflight). */
export const formEmbedRoutes = fp(
  async (app: FastifyInstance) => {
    // Callback style: every other request passes without a promise and a microtask turn (issue 35 §4).
    // A preflight it answers does not go on (no done()).
    app.addHook('onRequest', (request, reply, done) => {
      if (!request.url.startsWith(PUBLIC_FORMS_API)) return done();
      publicFormsCors(app, request, reply).then((answered) => {
        if (!answered) done();
      }, done);
    });

    app.get('/form/:formId', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      if (!app.webClient.built()) throw notFound('The web client is not built yet');
      await allowFraming(app, reply);
      return reply.header('cache-control', 'no-cache').sendFile('index.html', app.webClient.root);
    });

    const script = embedScript(FORM_EMBED_MESSAGE);
    app.get(FORM_EMBED_SCRIPT_PATH, { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').header('cross-origin-resource-policy', 'cross-origin').send(script),
    );
  },
  { name: 'kuvert-form-embed', dependencies: [ACCESS_PLUGIN, 'kuvert-web-client'], fastify: '5.x' },
);
