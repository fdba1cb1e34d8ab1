import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { DELIVERY_ENDPOINTS } from '@shared/contract/endpoints/deliveries';
import { startTestServer, type TestServer } from '@tests/support/server';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityOf } from '../../server/core/openapi';
import { call, expectBackendError, signInAdmin, type Session } from './core-helpers';

/**
 * The published OpenAPI document as integrators use it: it validates (swagger-parser), lints
 * clean with Redocly's recommended rules, and a client generated from it (openapi-typescript)
 * type-checks against the bodies of real calls. All of it offline: any connection to
 * another host while the tools run fails the test.
 */

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface Document {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

let server: TestServer;
let admin: Session;
let doc: Document;
let text: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  const response = await fetch(`${server.url}/api/2/openapi.json`);
  expect(response.status).toBe(200);
  text = await response.text();
  doc = JSON.parse(text) as Document;
});
afterAll(() => server?.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })));

/** Runs `work` and fails on any outgoing connection to a host other than this machine. */
async function offline<T>(work: () => Promise<T>): Promise<T> {
  const attempts: string[] = [];
  const original = Socket.prototype.connect;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- connect has many overloads; the guard passes them through
  Socket.prototype.connect = function guarded(this: Socket, ...args: any[]) {
    const first = args[0] as { host?: string; path?: string } | number | string;
    const host = typeof first === 'object' && first !== null ? (first.host ?? first.path ?? '') : typeof args[1] === 'string' ? args[1] : '';
    if (!['127.0.0.1', 'localhost', '::1', ''].includes(host)) attempts.push(host);
    return (original as (...a: unknown[]) => Socket).apply(this, args);
  } as typeof original;
  const originalFetch = globalThis.fetch;
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    attempts.push(String(input instanceof Request ? input.url : input));
    return originalFetch(input, init);
  }) as typeof fetch;
  try {
    return await work();
  } finally {
    Socket.prototype.connect = original;
    globalThis.fetch = originalFetch;
    expect(attempts, 'network access while checking the document').toEqual([]);
  }
}

describe('the OpenAPI document', () => {
  it('validates with swagger-parser', async () => {
    await offline(async () => {
      // validate() dereferences in place: give it a copy.
      await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    });
  });

  it("lints clean with Redocly's recommended rules (no error, no warning)", async () => {
    const problems = await offline(async () => {
      const config = await createConfig({ extends: ['recommended'] });
      return lintFromString({ source: text, absoluteRef: `${server.url}/api/2/openapi.json`, config });
    });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
  });

  it("names this server's public address as its server and every operation uniquely", () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: server.url })]);
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // /api/2 operations are named in the endpoint catalogue; other routes get one from method and path.
    expect(doc.paths['/api/2/deliveries/{deliveryUuid}/files']?.post?.operationId).toBe(DELIVERY_ENDPOINTS.addFile.operationId);
    expect(doc.paths['/j_spring_security_logout']?.get?.operationId).toBe('getJSpringSecurityLogout');
    // The sign-out answers a small HTML page, and says so.
    expect(Object.keys((doc.paths['/j_spring_security_logout']?.get?.responses?.['200'] as { content: object }).content)).toEqual(['text/html']);
  });

  it('derives every operation’s security from the route’s access declaration', () => {
    const documented = operations();
    expect(documented.length).toBeGreaterThan(40);
    for (const { path, method, operation } of documented) {
      const url = path.replace(/\{([^}]+)\}/g, ':$1');
      const route = server.app.routeTable.find((r) => r.method === method && r.url === url);
      expect(route, `${method} ${path} is a route`).toBeDefined();
      // The sign-in is public but names how its credentials travel.
      const expected = url === '/api/2/auth' ? [{ basicAuth: [] }] : securityOf(route!.access!, method, route!.endpoint?.webSessionOnly === true);
      expect(operation.security, `${method} ${path}`).toEqual(expected);
    }
    expect(doc.paths['/api/2/admin/settings']?.put?.security).toEqual([{ sessionCookie: [], antiCsrfHeader: [] }, { addinBearer: [] }]);
    expect(doc.paths['/api/2/user']?.get?.security).toEqual([{ sessionCookie: [] }, { addinBearer: [] }]);
    expect(doc.paths['/api/2/config/profile']?.get?.security).toEqual([]);
    // Minting an add-in token takes the web session only: no bearer scheme offered.
    expect(doc.paths['/api/2/auth/addin-session']?.post?.security).toEqual([{ sessionCookie: [], antiCsrfHeader: [] }]);
  });

  it('answers every 4xx in the error shape, and what it documents as secured refuses a call without credentials (401)', async () => {
    const secured = operations().filter(({ operation }) => (operation.security ?? []).length > 0 && !('basicAuth' in (operation.security![0] ?? {})));
    expect(secured.length).toBeGreaterThan(20);
    for (const { path, method, operation } of operations()) {
      const clientErrors = Object.entries(operation.responses).filter(([code]) => code.startsWith('4'));
      expect(clientErrors.map(([code]) => code), `${method} ${path}`).toContain('4XX');
      for (const [code, answer] of clientErrors) {
        expect(answer.content?.['application/json']?.schema, `${method} ${path} ${code}`).toEqual({ $ref: '#/components/schemas/BackendError' });
      }
    }
    for (const { path, method, operation } of secured) {
      expect(Object.keys(operation.responses), `${method} ${path}`).toContain('401');
      const probe = () =>
        fetch(`${server.url}${path.replace(/\{[^}]+\}/g, 'x1')}`, {
          method,
          headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
          body: method === 'GET' ? undefined : '{}',
        });
      // A refused call changes nothing, so one retry is safe: on a very busy machine a reused
      // keep-alive socket was once reset under the probe (ECONNRESET, seen at load 15).
      const response = await probe().catch((error: unknown) => {
        if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
        return probe();
      });
      await expectBackendError(response, 401, 'AuthenticationRequiredException');
    }
  });

  // The TypeScript compiler runs twice: allow for a busy machine.
  it('generates a typed client (openapi-typescript) that type-checks against real answers', { timeout: 120_000 }, async () => {
    const generated = await offline(async () => astToString(await openapiTS(structuredClone(doc) as never, { silent: true })));
    expect(generated).toContain('export interface paths');

    // Real answers, typed with the generated client's types.
    const profile: unknown = await (await fetch(`${server.url}/api/2/config/profile`)).json();
    const user: unknown = await (await call(server, admin, 'GET', '/api/2/user')).json();
    const sent: unknown = await (await call(server, admin, 'GET', '/api/2/deliveries/sent')).json();
    const created: unknown = await (await call(server, admin, 'POST', '/api/2/admin/users', { email: 'typed@example.test', password: 'Good-Passw0rd' })).json();
    const denied: unknown = await (await fetch(`${server.url}/api/2/user`)).json();
    const usage = (userBody: unknown) => `import type { paths, components } from './kuvert-api';
type Json<P extends keyof paths, M extends keyof paths[P], S extends number> =
  paths[P][M] extends { responses: infer R } ? (S extends keyof R ? (R[S] extends { content: { 'application/json': infer B } } ? B : never) : never) : never;
export const profile: Json<'/api/2/config/profile', 'get', 200> = ${JSON.stringify(profile)};
export const user: Json<'/api/2/user', 'get', 200> = ${JSON.stringify(userBody)};
export const sent: Json<'/api/2/deliveries/sent', 'get', 200> = ${JSON.stringify(sent)};
export const created: Json<'/api/2/admin/users', 'post', 201> = ${JSON.stringify(created)};
export const denied: components['schemas']['BackendError'] = ${JSON.stringify(denied)};
export const body: paths['/api/2/admin/users']['post']['requestBody'] extends { content: { 'application/json': infer B } } ? B : never = { email: 'typed@example.test', password: 'Good-Passw0rd' };
`;

    const dir = await mkdtemp(join(tmpdir(), 'kuvert-openapi-'));
    try {
      await writeFile(join(dir, 'kuvert-api.ts'), generated);
      // No DOM lib and the previous program reused: the second check only re-reads usage.ts.
      const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, types: [] };
      let previous: ts.Program | undefined;
      const check = async (source: string) => {
        await writeFile(join(dir, 'usage.ts'), source);
        previous = ts.createProgram([join(dir, 'usage.ts')], options, undefined, previous);
        return ts.getPreEmitDiagnostics(previous).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      };
      expect(await check(usage(user))).toEqual([]);
      // The check can fail: a user whose email is a number is not the documented answer.
      const signedIn = user as { user: Record<string, unknown> };
      const wrong = { ...signedIn, user: { ...signedIn.user, email: 42 } };
      expect((await check(usage(wrong))).join('\n')).toMatch(/number.*not assignable.*string/s);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
