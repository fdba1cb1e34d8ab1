import { AUTHORIZATION_ERROR } from '@shared/contract/errors';
import type { User } from '@shared/contract/user';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error';
import { ANTI_CSRF_STORAGE_KEY, createApiClient } from '../api/client';
import { createMemoryStorage } from '../api/storage-adapter';
import { createAuthStore } from './auth-store';
import { LoginAuthorizationError } from './authorization-errors';

const alice: User = {
  uuid: 'u-1',
  id: 1,
  username: 'alice',
  email: 'alice@example.org',
  firstName: 'Alice',
  lastName: 'Doe',
  roleNames: ['ROLE_UI_USER'],
  language: 'en',
  totpEnabled: false,
};

interface Call {
  method: string;
  url: URL;
  headers: Headers;
}

/**
 * A small in-memory backend speaking the agreed HTTP design, behind the fetch the client
 * uses. (The real server lands in parallel; these rules are what the store relies on.)
 */
function createBackend() {
  const calls: Call[] = [];
  let signedIn = false;
  let userStatus: number | null = null; // forced status for GET /user
  let loginFailure: { status: number; header?: string; body?: unknown } | null = null;
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://kuvert.test');
    const headers = new Headers(init?.headers);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, headers });
    if (url.pathname === '/api/2/user' && method === 'GET') {
      if (userStatus) return json(userStatus, { uuid: 'e', requestUri: '/api/2/user', error: 'X', message: 'boom', metadata: {} });
      return signedIn ? json(200, { user: alice }) : json(401, { uuid: 'e', requestUri: '/api/2/user', error: 'AuthenticationRequiredException', message: 'not signed in', metadata: {} });
    }
    if (url.pathname === '/api/2/auth' && method === 'POST') {
      if (loginFailure) {
        return json(loginFailure.status, loginFailure.body ?? { message: 'Bad credentials' }, loginFailure.header ? { 'authorization-errors': loginFailure.header } : {});
      }
      signedIn = true;
      return json(200, { data: { user: alice } }, { anticsrfattr: 'csrf-123' });
    }
    if (url.pathname === '/webui/keepAlive.html') return new Response('ok', { status: 200, headers: { 'content-type': 'text/html' } });
    if (url.pathname === '/j_spring_security_logout') {
      signedIn = false;
      return new Response('', { status: 200 });
    }
    return json(404, { message: 'not found' });
  });
  return {
    fetch,
    calls,
    setSignedIn: (value: boolean) => void (signedIn = value),
    forceUserStatus: (status: number | null) => void (userStatus = status),
    failLogin: (failure: typeof loginFailure) => void (loginFailure = failure),
  };
}

function setup() {
  const backend = createBackend();
  const storage = createMemoryStorage();
  const client = createApiClient({ fetch: backend.fetch as unknown as typeof fetch, storage });
  const store = createAuthStore({ client, log: () => {} });
  return { backend, storage, client, store };
}

const keepAliveCalls = (calls: Call[]) => calls.filter((c) => c.url.pathname === '/webui/keepAlive.html').length;

describe('auth store (SPEC §4)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('initialize marks initialized with the user when signed in', async () => {
    const { backend, store } = setup();
    backend.setSignedIn(true);
    await store.initialize();
    expect(store.getState()).toMatchObject({ initialized: true, user: alice, loadError: false });
    store.dispose();
  });

  it('initialize treats 401/403 as "nobody", not as an error', async () => {
    const { backend, store } = setup();
    await store.initialize();
    expect(store.getState()).toMatchObject({ initialized: true, user: null, loadError: false });
    backend.forceUserStatus(403);
    await store.reloadUser();
    expect(store.getState().loadError).toBe(false);
  });

  it('asks nothing when the client knows nobody is signed in (issue 32: no 401 in the console), and asks again once that changes', async () => {
    const backend = createBackend();
    let signedOut = true;
    const store = createAuthStore({ client: createApiClient({ fetch: backend.fetch as unknown as typeof fetch, storage: createMemoryStorage() }), log: () => {}, knownSignedOut: () => signedOut });
    await store.initialize();
    expect(store.getState()).toMatchObject({ initialized: true, user: null, loadError: false });
    expect(backend.calls.filter((c) => c.url.pathname === '/api/2/user')).toHaveLength(0);
    signedOut = false;
    backend.setSignedIn(true);
    expect(await store.reloadUser()).toEqual(alice);
    expect(backend.calls.filter((c) => c.url.pathname === '/api/2/user')).toHaveLength(1);
    store.dispose();
  });

  it('initialize marks initialized even when loading fails, and flags the error', async () => {
    const { backend, store } = setup();
    backend.forceUserStatus(500);
    await store.initialize();
    expect(store.getState()).toMatchObject({ initialized: true, user: null, loadError: true });
  });

  it('login stores user and fresh anti-forgery value, then keeps alive every 60 000 ms', async () => {
    const { backend, client, storage, store } = setup();
    const user = await store.login({ username: 'alice', password: 'pässword' });
    expect(user).toEqual(alice);
    expect(client.getAntiCsrfToken()).toBe('csrf-123');
    expect(storage.getItem(ANTI_CSRF_STORAGE_KEY)).toBe('csrf-123');
    const loginCall = backend.calls.find((c) => c.url.pathname === '/api/2/auth');
    expect(loginCall?.headers.get('authorization')).toBe(`Basic ${Buffer.from('alice:pässword').toString('base64')}`);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(keepAliveCalls(backend.calls)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(keepAliveCalls(backend.calls)).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(keepAliveCalls(backend.calls)).toBe(3);
    // Every later call carries the anti-forgery header.
    await store.reloadUser();
    expect(backend.calls.at(-1)?.headers.get('anticsrfattr')).toBe('csrf-123');
    store.dispose();
  });

  it('sends the whitespace-free one-time code in the query', async () => {
    const { backend, store } = setup();
    await store.login({ username: 'alice', password: 'x' }, { j_auth_app_code: ' 123 456 ', j_login_disclaimer_accepted: 'true' });
    const url = backend.calls.find((c) => c.url.pathname === '/api/2/auth')?.url;
    expect(url?.searchParams.get('j_auth_app_code')).toBe('123456');
    expect(url?.searchParams.get('j_login_disclaimer_accepted')).toBe('true');
    store.dispose();
  });

  it('login failure clears the user and surfaces the parsed authorization-errors list', async () => {
    const { backend, store } = setup();
    await store.login({ username: 'alice', password: 'x' });
    backend.failLogin({ status: 401, header: JSON.stringify([{ authorizationError: AUTHORIZATION_ERROR.CAPTCHA_REQUIRED, captchaId: 'c1' }]) });
    const failure = await store.login({ username: 'alice', password: 'y' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LoginAuthorizationError);
    expect((failure as LoginAuthorizationError).entries).toEqual([{ authorizationError: 2, captchaId: 'c1' }]);
    expect((failure as LoginAuthorizationError).has(AUTHORIZATION_ERROR.CAPTCHA_REQUIRED)).toBe(true);
    expect(store.getState().user).toBeNull();
    // No keep-alive after the user is gone.
    await vi.advanceTimersByTimeAsync(180_000);
    expect(keepAliveCalls(backend.calls)).toBe(0);
  });

  it('login failure without the header surfaces the raw error', async () => {
    const { backend, store } = setup();
    backend.failLogin({ status: 500, body: { uuid: 'e', requestUri: '/api/2/auth', error: 'InternalServerException', message: 'Internal error', metadata: {} } });
    const failure = await store.login({ username: 'a', password: 'b' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('Internal error');
    expect((failure as ApiError).errorClass).toBe('InternalServerException');
  });

  it('logout calls the logout endpoint, forgets the anti-forgery value and clears the user', async () => {
    const { backend, client, store } = setup();
    await store.login({ username: 'alice', password: 'x' });
    await store.logout();
    expect(backend.calls.some((c) => c.url.pathname === '/j_spring_security_logout')).toBe(true);
    expect(client.getAntiCsrfToken()).toBeNull();
    expect(store.getState().user).toBeNull();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(keepAliveCalls(backend.calls)).toBe(0);
  });

  it('reloadUser clears the user when the session is gone or loading fails', async () => {
    const { backend, store } = setup();
    await store.login({ username: 'alice', password: 'x' });
    backend.setSignedIn(false);
    await store.reloadUser();
    expect(store.getState().user).toBeNull();
    await store.login({ username: 'alice', password: 'x' });
    backend.forceUserStatus(502);
    await store.reloadUser();
    expect(store.getState()).toMatchObject({ user: null, loadError: true });
  });

  it('a keep-alive tick with no user clears the user and stops', async () => {
    const { backend, store } = setup();
    await store.login({ username: 'alice', password: 'x' });
    store.setUser(null);
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(keepAliveCalls(backend.calls)).toBe(0);
  });

  it('sends the browser to the two-factor page when GET /user ends there (SPEC §7)', async () => {
    const redirected: string[] = [];
    const fetch = vi.fn(async () => {
      const response = new Response('<html>two factor</html>', { status: 200, headers: { 'content-type': 'text/html' } });
      Object.defineProperty(response, 'url', { value: 'http://kuvert.test/webui/twoFactor' });
      return response;
    });
    const store = createAuthStore({ client: createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch }), redirect: (url) => redirected.push(url), log: () => {} });
    await store.initialize();
    expect(redirected).toEqual(['http://kuvert.test/webui/twoFactor']);
    expect(store.getState().user).toBeNull();
  });

  it('notifies subscribers', async () => {
    const { backend, store } = setup();
    backend.setSignedIn(true);
    const listener = vi.fn();
    store.subscribe(listener);
    await store.initialize();
    expect(listener).toHaveBeenCalled();
    store.dispose();
  });
});
