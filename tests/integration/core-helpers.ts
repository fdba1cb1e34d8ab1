import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import type { CreateUserBody } from '@shared/contract/admin-users';
import { AUTHORIZATION_ERRORS_HEADER, BackendErrorSchema, type AuthorizationErrorEntry, type BackendError } from '@shared/contract/errors';
import { proveAddress } from '@tests/support/prove-address';
import type { TestServer } from '@tests/support/server';
import { expect } from 'vitest';

/** Helpers of the server-core integration tests: plain fetch against the real server. */

export const basicAuth = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`, 'utf8').toString('base64')}`;

export interface Session {
  cookie: string;
  csrf: string;
}

export interface LoginAnswer {
  response: Response;
  body: unknown;
  errors: AuthorizationErrorEntry[];
  session: Session | null;
}

export async function postAuth(server: TestServer, login: string, password: string, query: Record<string, string> = {}): Promise<LoginAnswer> {
  const qs = new URLSearchParams(query).toString();
  const response = await fetch(`${server.url}/api/2/auth${qs ? `?${qs}` : ''}`, {
    method: 'POST',
    headers: { authorization: basicAuth(login, password), 'content-type': 'application/json' },
  });
  const header = response.headers.get(AUTHORIZATION_ERRORS_HEADER);
  const setCookie = response.headers.get('set-cookie');
  const csrf = response.headers.get(ANTI_CSRF_HEADER);
  return {
    response,
    body: await response.json().catch(() => null),
    errors: header ? (JSON.parse(header) as AuthorizationErrorEntry[]) : [],
    session: setCookie && csrf ? { cookie: setCookie.split(';')[0]!, csrf } : null,
  };
}

export async function signIn(server: TestServer, login: string, password: string): Promise<Session> {
  const answer = await postAuth(server, login, password);
  expect(answer.response.status, JSON.stringify(answer.errors)).toBe(200);
  return answer.session!;
}

export const signInAdmin = (server: TestServer) => signIn(server, server.admin.email, server.admin.password);

/** A call with the session cookie and, unless told otherwise, its anti-forgery header. */
export async function call(
  server: TestServer,
  session: Session | null,
  method: string,
  path: string,
  body?: unknown,
  options: { csrf?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (session) headers.cookie = session.cookie;
  const csrf = options.csrf === undefined ? session?.csrf : options.csrf;
  if (csrf) headers[ANTI_CSRF_HEADER] = csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/**
 * Creates an account through the admin API, then its owner proves the address (first sign-in with
 * the mailed code, `proveAddress`), as every account made by someone else needs before use.
 * `prove: false` leaves it unverified.
 */
export async function createUserAsAdmin(server: TestServer, admin: Session, user: Partial<CreateUserBody> & { email: string }, options: { prove?: boolean } = {}) {
  const response = await call(server, admin, 'POST', '/api/2/admin/users', { password: 'Good-Passw0rd', ...user });
  expect(response.status, await response.clone().text()).toBe(201);
  const password = user.password ?? 'Good-Passw0rd';
  if (options.prove !== false) await proveAddress(server, user.email, password);
  return { ...user, password };
}

export async function updateSettings(server: TestServer, admin: Session, settings: Record<string, string | number | boolean | null>) {
  const response = await call(server, admin, 'PUT', '/api/2/admin/settings', settings);
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Asserts the backend error object (SPEC §3) and returns it. */
export async function expectBackendError(response: Response, status: number, errorClass?: string): Promise<BackendError> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  const body = BackendErrorSchema.parse(await response.json());
  if (errorClass) expect(body.error).toBe(errorClass);
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(ts|js):\d+/); // never a stack trace
  return body;
}

/**
 * Forgets every counted sign-in failure. All test requests come from 127.0.0.1, so one
 * test's failures would otherwise turn on the captcha (per address) for the next.
 */
export async function forgetFailures(server: TestServer): Promise<void> {
  await server.app.db.deleteFrom('rate_limit_events').execute();
  await server.app.db.deleteFrom('login_throttles').execute();
  await server.app.db.deleteFrom('login_address_failures').execute();
}

/** A concrete path for a route pattern (`:token` and `*` filled in). */
export const concretePath = (url: string) => url.replace(/:[A-Za-z_]+/g, 'x1').replace(/\*$/, 'x1');
