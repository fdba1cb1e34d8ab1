import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { API_BASE } from '@shared/contract/constants';

/** Third-party origins the web client may use: the widget's host (its script, styles, frames, calls) and the analytics upload host. */
export interface ThirdPartyOrigins {
  productHelp: string | null;
  analytics: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `'addin'`: the add-in's policy (Outlook frames the page, office.js from Microsoft's CDN). */
    securityHeaders?: 'addin';
  }
}

/**
 * Browser and transport hardening (issue 12 §3): every response carries the headers of
 * `helmet`, configured here once; the add-in's routes set `config.securityHeaders: 'addin'`.
 * The policy and its reasons are written down in server/README.md ("Security headers").
 */

/** Microsoft's CDN the task pane loads office.js from (it must not be bundled or self-hosted). */
export const OFFICE_JS_ORIGIN = 'https://appsforoffice.microsoft.com';

/**
 * Who may frame the add-in pages: Outlook on the web and the new Outlook (which is Outlook on
 * the web in a WebView2 shell). Classic desktop Outlook does not frame the pane in a web page,
 * so frame-ancestors does not apply there.
 */
export const OUTLOOK_FRAME_ANCESTORS = [
  'https://outlook.office.com',
  'https://outlook.office365.com',
  'https://outlook.cloud.microsoft',
  'https://outlook.live.com',
  'https://*.outlook.com',
  'https://*.office.com',
  'https://*.office365.com',
] as const;

type Directives = Record<string, string[]>;

const NO_THIRD_PARTY: ThirdPartyOrigins = { productHelp: null, analytics: null };

/**
 * The web client, the legacy pages, the wizard, the download service worker, and every answer
 * that is not an API answer (API_POLICY below).
 * - script-src: only our own files; 'wasm-unsafe-eval' lets the crypto Worker compile
 *   hash-wasm's Argon2id (WebAssembly only; `eval` and inline scripts stay forbidden).
 * - style-src 'unsafe-inline': Fluent UI v9 (Griffel) inserts <style> elements at run time.
 *   A nonce would need index.html rendered per request and the nonce handed to every Griffel
 *   renderer; the risk it would remove (injected CSS) is small here: React escapes all text,
 *   there is no HTML sink, and img-src/font-src/connect-src keep CSS from reaching a foreign host.
 */
function baseDirectives(https: boolean, origins: ThirdPartyOrigins = NO_THIRD_PARTY): Directives {
  // The operator's product-help widget and analytics host (server/settings/operator-profile.ts), only when set.
  const help = origins.productHelp ? [origins.productHelp] : [];
  const analytics = origins.analytics ? [origins.analytics] : [];
  const directives: Directives = {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'", ...help],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'", ...help],
    'img-src': ["'self'", 'data:', 'blob:', ...help],
    'font-src': ["'self'", ...help],
    'connect-src': ["'self'", ...help, ...analytics],
    'worker-src': ["'self'"],
    // A Secure room's audio/video preview plays the bytes decrypted in the browser (a blob: URL).
    'media-src': ["'self'", 'blob:'],
    'frame-src': ["'self'", ...help],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  // Over plain http an upgrade would send every sub-request to an https port that is not there.
  if (https) directives['upgrade-insecure-requests'] = [];
  return directives;
}

function addinDirectives(https: boolean): Directives {
  const base = baseDirectives(https);
  return {
    ...base,
    'script-src': [...base['script-src']!, OFFICE_JS_ORIGIN],
    'frame-ancestors': ["'self'", ...OUTLOOK_FRAME_ANCESTORS],
  };
}

/** True when the public URL is https (HSTS and upgrade-insecure-requests only then). */
export function isHttpsPublicUrl(publicUrl: string): boolean {
  return new URL(publicUrl).protocol === 'https:';
}

/** One year; no includeSubDomains: a self-hosted server must not decide for its neighbours. */
const HSTS_MAX_AGE_S = 365 * 24 * 60 * 60;

function helmetOptions(https: boolean, addin: boolean, origins: ThirdPartyOrigins = NO_THIRD_PARTY): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: addin ? addinDirectives(https) : baseDirectives(https, origins) },
    // Download tokens travel in URLs: no page of ours may leak its address to another site.
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: false } : false,
    // The add-in: Outlook frames the pages (frame-ancestors lists its origins), the dialog keeps
    // its opener (Office's dialog API talks to Outlook through it), Outlook shows the icons.
    xFrameOptions: addin ? false : { action: 'deny' },
    crossOriginOpenerPolicy: addin ? false : { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: addin ? 'cross-origin' : 'same-origin' },
  };
}

type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * The headers helmet's middleware sets for `options`, worked out once. They depend only on the
 * options (no per-request nonces: see style-src above), so running helmet on every request, as
 * `@fastify/helmet` does (it rebuilds the middleware each time), cost ~9 % of a `GET /user`'s
 * server CPU for the same answer (issue 35 §4).
 */
function headersOf(options: HelmetOptions): HeaderList {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
}

/**
 * The policy of an API answer: a JSON answer (or an empty 204) under `/api/2`, errors included.
 * OWASP's REST Security Cheat Sheet: an API answer loads nothing and is framed by nobody. Stricter
 * than the web client's policy and 265 bytes shorter on every API answer (a `GET /user`'s headers
 * 886 → 621 bytes; issue 35 §4). Only the Content-Security-Policy differs; the other headers stay
 * those of the web client's list. Rule and reasons: server/README.md ("Security headers").
 */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json/i;

/**
 * After the route (onSend): the API policy for API answers whose route set no policy of its own
 * (the web client's policy from the first hook is still there, compared by identity), and the
 * Cache-Control rule — answers that must never sit in a cache: JSON for a signed-in caller, every
 * download. File bodies (downloads, previews, ZIPs, exports) are not JSON: they keep their policy.
 */
function afterRoute(request: FastifyRequest, reply: FastifyReply, webPolicy: string): void {
  const disposition = reply.getHeader('content-disposition');
  if (disposition !== undefined && /^\s*attachment/i.test(String(disposition))) {
    void reply.header('cache-control', 'no-store');
    return;
  }
  const type = reply.getHeader('content-type');
  const json = type !== undefined && JSON_TYPE.test(String(type));
  const api = request.url.startsWith(API_BASE);
  if (api && (json || (type === undefined && reply.statusCode === 204)) && reply.getHeader('content-security-policy') === webPolicy) {
    void reply.header('content-security-policy', API_POLICY);
  }
  if (!json) return;
  // Public API answers keep a policy their route chose (e.g. the config profile's no-cache).
  if (request.user || (api && !reply.hasHeader('cache-control'))) void reply.header('cache-control', 'no-store');
}

/** The headers of the web client's policy, and of the add-in's where a route asks for it. */
export function securityHeaderLists(publicUrl: string, origins: ThirdPartyOrigins = NO_THIRD_PARTY): { web: HeaderList; addin: HeaderList } {
  const https = isHttpsPublicUrl(publicUrl);
  return { web: headersOf(helmetOptions(https, false, origins)), addin: headersOf(helmetOptions(https, true)) };
}

/** The value of `name` in `list` (the web client's Content-Security-Policy, worked out once). */
function valueOf(list: HeaderList, name: string): string {
  const found = list.find(([key]) => key === name);
  if (!found) throw new Error(`no ${name} in the security headers`);
  return found[1];
}

/**
 * Sets the security headers on every answer (first hook on the root, so refusals, 404s and
 * errors carry them too), the API policy on API answers and the Cache-Control rule (onSend).
 * Not encapsulated.
 */
export async function installSecurityHeaders(app: FastifyInstance, publicUrl: string, origins: ThirdPartyOrigins = NO_THIRD_PARTY): Promise<void> {
  const lists = securityHeaderLists(publicUrl, origins);
  app.addHook('onRequest', (request, reply, done) => {
    const list = request.routeOptions.config?.securityHeaders === 'addin' ? lists.addin : lists.web;
    // Into Fastify's own header object, not Node's (`reply.raw.setHeader`): with Node's set empty,
    // writeHead takes Fastify's object as it is instead of merging it header by header into Node's,
    // 1–2 µs less server CPU per answer (issue 35 §4). Every answer still carries them: Fastify
    // writes this object for JSON, files, streams and errors, and the hijacked download
    // (storage/pooled-body.ts) writes `reply.getHeaders()`, which includes it.
    for (const [name, value] of list) void reply.header(name, value);
    done();
  });
  const webPolicy = valueOf(lists.web, 'content-security-policy');
  // Callback style: an async hook costs a promise and a turn of the microtask queue per answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    afterRoute(request, reply, webPolicy);
    done(null, payload);
  });
}
