import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_BASE, LANGUAGES } from '@shared/contract/constants';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { notFound } from '../core/http-error';
import { htmlPage } from '../pages/html';

/** Hashed bundles may be cached long; index.html never (it names the current bundles). */
const ASSET_MAX_AGE_S = 7 * 24 * 60 * 60;

export interface WebClient {
  root: string;
  /** True when the built client (index.html) is there. */
  built(): boolean;
}

/** Paths the server renders itself; the SPA fallback never answers them. */
const SERVER_PREFIXES = [API_BASE, '/webui', '/dev/', '/webjars/', '/addin/', '/j_spring_security_logout'];

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') || accept.includes('*/*') || accept === '';
}

/** Answers a GET that matched no route with the SPA's index.html when that is what the browser wants. */
export async function sendSpaFallback(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (SERVER_PREFIXES.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`))) return false;
  if (!wantsHtml(request) || !app.webClient.built()) return false;
  await reply.header('cache-control', 'no-cache').sendFile('index.html', app.webClient.root);
  return true;
}

declare module 'fastify' {
  interface FastifyInstance {
    webClient: WebClient;
  }
}

/**
 * The built web client (webpack writes `dist/web`): `/webjars/*` as static files, `/`
 * and every other HTML navigation as index.html (SPA fallback, in the 404 handler).
 */
export function webClientRoutes(webRoot: string) {
  // fastify-plugin: reply.sendFile and app.webClient must reach the root's 404 handler.
  return fp(async (app: FastifyInstance) => {
    const root = resolve(webRoot);
    app.decorate('webClient', { root, built: () => existsSync(join(root, 'index.html')) });
    // serve:false: our own routes serve the files, so they carry access declarations.
    await app.register(fastifyStatic, { root, serve: false });

    // The alias of the secure-mail routes (SPEC §2 `/webjars/secumails/:locale`): a redirect to
    // the same page under /secumails, query kept; `:locale` is de, en or fr, anything else 404.
    app.get('/webjars/secumails/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const [path, query] = request.url.split('?') as [string, string | undefined];
      const rest = path.slice('/webjars/secumails/'.length);
      const locale = rest.split('/')[0] ?? '';
      if (!(LANGUAGES as readonly string[]).includes(locale)) throw notFound();
      return reply.redirect(`/secumails/${rest}${query === undefined ? '' : `?${query}`}`, 302);
    });

    app.get('/webjars/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const file = (request.params as { '*': string })['*'];
      if (!file || file.includes('\0')) throw notFound();
      return reply.sendFile(file, join(root, 'webjars'), { maxAge: ASSET_MAX_AGE_S * 1000, immutable: /\.[0-9a-f]{8,}\./.test(file) });
    });

    app.get('/', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      if (app.webClient.built()) return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
      return reply
        .type('text/html; charset=utf-8')
        .send(htmlPage({ lang: 'en', title: 'Kuvert', body: '<h1>Kuvert</h1><p>The web client is not built yet: run <code>npm run build</code>.</p>' }));
    });
  }, { name: 'kuvert-web-client' });
}
