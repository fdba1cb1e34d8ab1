import { BackendErrorSchema } from '@shared/contract/errors';
import { startTestServer, type TestServer } from '@tests/support/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, call, expectBackendError, signInAdmin, type Session } from './core-helpers';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
});
afterAll(() => server?.close());

describe('bad input gives 4xx with the error object', () => {
  it('unknown route → 404 NotFoundException', async () => {
    const body = await expectBackendError(await fetch(`${server.url}/api/2/does/not/exist`), 404, 'NotFoundException');
    expect(body.requestUri).toBe('/api/2/does/not/exist');
  });

  it('validation → 400 ValidationException with the zod issues', async () => {
    const response = await call(server, admin, 'POST', '/api/2/user/updateLoggedInUser', { user: { language: 'xx' } });
    const body = await expectBackendError(response, 400, 'ValidationException');
    expect(body.metadata.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining('language') })]));
  });

  it('unknown fields (strict schemas) → 400', async () => {
    const response = await call(server, admin, 'POST', '/api/2/user/updateLoggedInUser', { user: { language: 'de' }, admin: true });
    await expectBackendError(response, 400, 'ValidationException');
  });

  it('invalid JSON → 400', async () => {
    const response = await fetch(`${server.url}/api/2/user/updateLoggedInUser`, {
      method: 'POST',
      headers: { cookie: admin.cookie, anticsrfattr: admin.csrf, 'content-type': 'application/json' },
      body: '{"user": {',
    });
    await expectBackendError(response, 400, 'ValidationException');
  });

  it('prototype pollution attempts → 400', async () => {
    const response = await fetch(`${server.url}/api/2/user/updateLoggedInUser`, {
      method: 'POST',
      headers: { cookie: admin.cookie, anticsrfattr: admin.csrf, 'content-type': 'application/json' },
      body: '{"user": {"language":"de"}, "__proto__": {"polluted": true}}',
    });
    await expectBackendError(response, 400);
  });

  it('wrong content type → 415 UnsupportedMediaTypeException', async () => {
    const response = await fetch(`${server.url}/api/2/user/updateLoggedInUser`, {
      method: 'POST',
      headers: { cookie: admin.cookie, anticsrfattr: admin.csrf, 'content-type': 'text/plain' },
      body: 'language=de',
    });
    await expectBackendError(response, 415, 'UnsupportedMediaTypeException');
  });

  it('oversized body → 413 PayloadTooLargeException', async () => {
    const response = await fetch(`${server.url}/api/2/user/updateLoggedInUser`, {
      method: 'POST',
      headers: { cookie: admin.cookie, anticsrfattr: admin.csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ user: { language: 'de' }, pad: 'x'.repeat(server.app.config.bodyLimit + 10) }),
    });
    await expectBackendError(response, 413, 'PayloadTooLargeException');
  });

  it('malformed Basic header → 400', async () => {
    const response = await fetch(`${server.url}/api/2/auth`, { method: 'POST', headers: { authorization: 'Basic ###' } });
    await expectBackendError(response, 400, 'ValidationException');
  });

  it('a malformed URL → 400 with the error object', async () => {
    const response = await fetch(`${server.url}/api/2/user/%E0%A4%A`);
    expect(response.status).toBeLessThan(500);
    expect(response.status).toBeGreaterThanOrEqual(400);
  });
});

/** Printable ASCII: what an HTTP client lets through in header values. */
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });

const junkBody = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 3 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ user: v })),
  fc.constantFrom('{', '[]', 'null', '"x"', '{"user":{"language":"de"}}', '{"__proto__":{"x":1}}', '\u0000', '{"email":"a@b.c","password":"x"}'),
);

const junkContentType = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/json; charset=latin1',
    '*/*',
    ';;;',
  ),
  printable,
);

const junkAuthorization = fc.oneof(
  fc.constant(undefined),
  printable,
  printable.map((s) => `Basic ${s}`),
  fc.tuple(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 })).map(([u, p]) => basicAuth(u, p)),
  fc.string({ maxLength: 40 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
);

const junkQuery = fc.oneof(
  fc.constant(''),
  fc.array(fc.tuple(printable, printable), { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')),
  fc.constantFrom('lang=de', 'lang=%zz', 'j_auth_app_code=12%2034', 'a=1&a=2', '%', '&&&=', 'j_login_disclaimer_accepted=maybe', 'lang[]=x'),
);

const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');

describe('property: junk never yields a 5xx', () => {
  it('throws generated junk at every route', { timeout: 180_000 }, async () => {
    const routes = server.app.routeTable.filter((r) => r.method !== 'HEAD');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.boolean(),
        methods,
        fc.boolean(),
        fc.string({ maxLength: 20 }),
        junkBody,
        junkContentType,
        junkAuthorization,
        junkQuery,
        printable,
        async (route, useRouteMethod, otherMethod, signedIn, segment, body, contentType, authorization, query, csrf) => {
          const method = useRouteMethod ? route.method : otherMethod;
          const path = route.url.replace(/:[A-Za-z_]+/g, encodeURIComponent(segment) || 'x').replace(/\*$/, encodeURIComponent(segment));
          const headers: Record<string, string> = {};
          if (contentType !== undefined) headers['content-type'] = contentType;
          if (authorization !== undefined) headers.authorization = authorization;
          if (signedIn) {
            headers.cookie = admin.cookie;
            headers.anticsrfattr = csrf.length % 2 ? admin.csrf : csrf;
          }
          const sendsBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
          const response = await fetch(`${server.url}${path}${query ? `?${query}` : ''}`, {
            method,
            headers,
            body: sendsBody ? body : undefined,
            redirect: 'manual',
          });
          const text = await response.text();
          expect(response.status, `${method} ${path}?${query} → ${text.slice(0, 300)}`).toBeLessThan(500);
          if (response.status >= 400 && path.startsWith('/api/2')) {
            BackendErrorSchema.parse(JSON.parse(text));
            expect(text).not.toMatch(/node_modules|\.ts:\d+/);
          }
        },
      ),
      { numRuns: 300, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    );
  });
});
