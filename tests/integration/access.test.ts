import { installAccessControl, MissingAccessDeclarationError } from '@server/core/access';
import { routePlugin } from '@server/core/route-plugin';
import { startTestServer, type TestServer } from '@tests/support/server';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, concretePath, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
});
afterAll(() => server?.close());


it('runs on the database the environment asks for', () => {
  expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
});

describe('route access declarations', () => {
  it('every route of the app declares who may call it', () => {
    expect(server.app.routeTable.length).toBeGreaterThan(10);
    const undeclared = server.app.routeTable.filter((r) => r.access === undefined);
    expect(undeclared).toEqual([]);
  });

  it('an app with an undeclared route refuses to start', async () => {
    const app = Fastify();
    await app.register(fastifyCookie);
    installAccessControl(app, { resolveSession: async () => undefined });
    expect(() => app.get('/undeclared', async () => 'x')).toThrow(MissingAccessDeclarationError);
    // Inside a plugin the same mistake fails the start.
    app.register(async (child) => {
      child.post('/undeclared-too', async () => 'x');
    });
    await expect(app.ready()).rejects.toThrow(MissingAccessDeclarationError);
    await app.close().catch(() => undefined);
  });

  it('a route plugin refuses to load without the access control (declared dependency)', async () => {
    const app = Fastify();
    app.register(routePlugin('lonely-routes', async (child) => {
      child.get('/x', { config: { access: 'public' } }, async () => 'x');
    }));
    await expect(app.ready()).rejects.toThrow(/kuvert-access/);
    await app.close().catch(() => undefined);
  });

  it('every non-public route answers 401 or 403 to an anonymous caller', async () => {
    const protectedRoutes = server.app.routeTable.filter((r) => r.access !== 'public' && r.method !== 'HEAD');
    expect(protectedRoutes.length).toBeGreaterThan(3);
    for (const route of protectedRoutes) {
      const response = await fetch(`${server.url}${concretePath(route.url)}`, {
        method: route.method,
        headers: route.method === 'GET' ? {} : { 'content-type': 'application/json' },
        body: route.method === 'GET' ? undefined : '{}',
      });
      expect([401, 403], `${route.method} ${route.url}`).toContain(response.status);
      await expectBackendError(response, response.status);
    }
  });

  it('role routes refuse a signed-in user without the role (403)', async () => {
    await createUserAsAdmin(server, admin, { email: 'plain@example.test' });
    const user = await signIn(server, 'plain@example.test', 'Good-Passw0rd');
    await expectBackendError(await call(server, user, 'GET', '/api/2/admin/settings'), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, user, 'PUT', '/api/2/admin/settings', { 'kuvert.delivery.allowSecurityLevel1': false }), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, user, 'POST', '/api/2/admin/users', { email: 'x@example.test', password: 'Good-Passw0rd' }), 403, 'AccessDeniedException');
  });

  it('a user administrator may create users but not change settings or grant ROLE_ADMIN', async () => {
    await createUserAsAdmin(server, admin, { email: 'useradmin@example.test', roleNames: ['ROLE_USER_ADMIN', 'ROLE_UI_USER'] });
    const userAdmin = await signIn(server, 'useradmin@example.test', 'Good-Passw0rd');
    expect((await call(server, userAdmin, 'POST', '/api/2/admin/users', { email: 'made-by-ua@example.test', password: 'Good-Passw0rd' })).status).toBe(201);
    await expectBackendError(
      await call(server, userAdmin, 'POST', '/api/2/admin/users', { email: 'sneaky@example.test', password: 'Good-Passw0rd', roleNames: ['ROLE_ADMIN'] }),
      403,
      'AccessDeniedException',
    );
    await expectBackendError(await call(server, userAdmin, 'PUT', '/api/2/admin/settings', {}), 403);
  });
});

describe('anti-forgery value', () => {
  it('refuses a state-changing call without anticsrfattr (403 CsrfTokenException)', async () => {
    const response = await call(server, admin, 'POST', '/api/2/user/updateLoggedInUser', { user: { language: 'de' } }, { csrf: null });
    await expectBackendError(response, 403, 'CsrfTokenException');
  });

  it('refuses a wrong anticsrfattr', async () => {
    const response = await call(server, admin, 'POST', '/api/2/user/updateLoggedInUser', { user: { language: 'de' } }, { csrf: 'not-the-value' });
    await expectBackendError(response, 403, 'CsrfTokenException');
  });

  it("refuses another session's value", async () => {
    const other = await signIn(server, server.admin.email, server.admin.password);
    const response = await call(server, admin, 'PUT', '/api/2/admin/settings', {}, { csrf: other.csrf });
    await expectBackendError(response, 403, 'CsrfTokenException');
  });

  it('accepts the right value and persists the language', async () => {
    const response = await call(server, admin, 'POST', '/api/2/user/updateLoggedInUser', { user: { language: 'de' } });
    expect(response.status).toBe(200);
    const me = await (await call(server, admin, 'GET', '/api/2/user')).json();
    expect(me.user.language).toBe('de');
  });

  it('does not need the value for reads', async () => {
    expect((await call(server, admin, 'GET', '/api/2/user', undefined, { csrf: null })).status).toBe(200);
  });
});
