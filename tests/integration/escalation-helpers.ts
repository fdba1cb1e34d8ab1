import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { AUTHORIZATION_ERRORS_HEADER, type AuthorizationErrorEntry } from '@shared/contract/errors';
import type { Language, RoleName } from '@shared/contract/constants';
import { hashPassword } from '@server/users/passwords';
import type { TestServer } from '@tests/support/server';

/** Shared by the escalation and password reset integration tests: real HTTP against a real server. */

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
}

export async function createUser(
  server: TestServer,
  options: {
    username: string;
    password?: string;
    language?: Language;
    emailVerified?: boolean;
    totpRequired?: boolean;
    roles?: RoleName[];
    /** How the password is hashed (default: the server's own Argon2id parameters). */
    hash?: (password: string) => Promise<string>;
  },
): Promise<TestUser> {
  const password = options.password ?? 'Correct-Horse-7';
  const email = `${options.username}@example.test`;
  const row = await server.app.users.create({
    username: options.username,
    email,
    passwordHash: await (options.hash ?? hashPassword)(password),
    roles: options.roles ?? ['ROLE_UI_USER', 'ROLE_SENDER', 'ROLE_RECEIVER'],
    language: options.language ?? 'en',
    emailVerified: options.emailVerified ?? true,
    totpRequired: options.totpRequired ?? false,
  });
  return { id: row.id, username: row.username, email, password };
}

export const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`, 'utf8').toString('base64')}`;

export interface LoginResult {
  status: number;
  errors: AuthorizationErrorEntry[];
  body: unknown;
  cookie: string | null;
  csrf: string | null;
}

export async function login(server: TestServer, user: { username: string; password: string }, query: Record<string, string> = {}): Promise<LoginResult> {
  const qs = new URLSearchParams(query).toString();
  const response = await fetch(`${server.url}/api/2/auth${qs ? `?${qs}` : ''}`, {
    method: 'POST',
    headers: { authorization: basic(user.username, user.password), 'content-type': 'application/json' },
  });
  const header = response.headers.get(AUTHORIZATION_ERRORS_HEADER);
  const setCookie = response.headers.get('set-cookie');
  return {
    status: response.status,
    errors: header ? (JSON.parse(header) as AuthorizationErrorEntry[]) : [],
    body: await response.json().catch(() => null),
    cookie: setCookie ? setCookie.split(';')[0]! : null,
    csrf: response.headers.get(ANTI_CSRF_HEADER),
  };
}

/** The single authorization error code of a refused login. */
export function codeOf(result: LoginResult): number | undefined {
  return result.errors[0]?.authorizationError;
}

export async function api(
  server: TestServer,
  path: string,
  init: { method?: string; body?: unknown; cookie?: string | null; csrf?: string | null; authorization?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  if (init.csrf) headers[ANTI_CSRF_HEADER] = init.csrf;
  if (init.authorization) headers.authorization = init.authorization;
  return fetch(`${server.url}/api/2${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** The answer of a captcha, read from the database (the test cannot read the SVG). */
export async function captchaAnswer(server: TestServer, captchaId: string): Promise<string> {
  const row = await server.app.db.selectFrom('captchas').select('answer').where('id', '=', captchaId).executeTakeFirstOrThrow();
  return row.answer;
}
