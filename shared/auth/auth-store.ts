import type { LoginQuery } from '@shared/contract/auth';
import { KEEP_ALIVE_INTERVAL_MS } from '@shared/contract/constants';
import type { User } from '@shared/contract/user';
import { isApiError } from '../api/api-error';
import type { ApiClient, BasicCredentials } from '../api/client';
import { endedOnTwoFactorPage, getCurrentUser } from '../api/endpoints/current-user';
import { getKeepAlive } from '../api/endpoints/keep-alive';
import { postLogin } from '../api/endpoints/login';
import { getLogout } from '../api/endpoints/logout';
import { LoginAuthorizationError, parseAuthorizationErrors } from './authorization-errors';

export interface AuthState {
  /** True once the first user load finished, whether or not it failed (SPEC §4). */
  initialized: boolean;
  user: User | null;
  /** The last user load failed for another reason than "not signed in" (banner authError). */
  loadError: boolean;
}

export interface AuthStore {
  getState(): AuthState;
  subscribe(listener: () => void): () => void;
  initialize(): Promise<void>;
  reloadUser(): Promise<User | null>;
  /** Resolves with the user; rejects with LoginAuthorizationError (parsed header) or the raw error. */
  login(credentials: BasicCredentials, query?: LoginQuery): Promise<User>;
  logout(): Promise<void>;
  /** Replaces the stored user (e.g. after a language change) without a request. */
  setUser(user: User | null): void;
  /** Stops the keep-alive timer (tests, page unload). */
  dispose(): void;
}

export interface AuthStoreOptions {
  client: ApiClient;
  keepAliveIntervalMs?: number;
  /** Sends the browser elsewhere (adapter over window.location); used when GET /user ends on the two-factor page. */
  redirect?: (url: string) => void;
  /**
   * True when the client knows nobody is signed in (the web: no signed-in hint cookie and no stored
   * anti-forgery value, shared/contract/auth.ts SIGNED_IN_HINT_COOKIE): GET /user is then not asked.
   */
  knownSignedOut?: () => boolean;
  /** Logs swallowed failures (keep-alive, logout); defaults to console.warn. */
  log?: (message: string, error: unknown) => void;
}

/**
 * Framework-free auth state (SPEC §4). React reads it through useSyncExternalStore.
 * NB: the anti-forgery value lives in the ApiClient; the store only sets and clears it.
 */
export function createAuthStore(options: AuthStoreOptions): AuthStore {
  const { client } = options;
  const interval = options.keepAliveIntervalMs ?? KEEP_ALIVE_INTERVAL_MS;
  const log = options.log ?? ((message: string, error: unknown) => console.warn(message, error));
  let state: AuthState = { initialized: false, user: null, loadError: false };
  const listeners = new Set<() => void>();
  let keepAliveTimer: ReturnType<typeof setInterval> | null = null;
  let initializing: Promise<void> | null = null;

  function setState(patch: Partial<AuthState>): void {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  }

  function stopKeepAlive(): void {
    if (keepAliveTimer !== null) clearInterval(keepAliveTimer);
    keepAliveTimer = null;
  }

  function clearUser(): void {
    stopKeepAlive();
    if (state.user !== null) setState({ user: null });
  }

  function keepAliveTick(): void {
    // With no user there is nothing to keep alive: clear (SPEC §4) and stop ticking.
    if (!state.user) {
      clearUser();
      return;
    }
    getKeepAlive(client).catch((error: unknown) => log('keep-alive failed', error));
  }

  function startKeepAlive(): void {
    stopKeepAlive();
    keepAliveTimer = setInterval(keepAliveTick, interval);
  }

  async function loadUser(): Promise<User | null> {
    if (options.knownSignedOut?.()) {
      clearUser();
      setState({ loadError: false });
      return null;
    }
    try {
      const { user, finalUrl } = await getCurrentUser(client);
      if (finalUrl && endedOnTwoFactorPage(finalUrl)) options.redirect?.(finalUrl);
      setState({ user, loadError: false });
      if (user) {
        if (keepAliveTimer === null) startKeepAlive();
      } else {
        clearUser();
      }
      return user;
    } catch (error) {
      clearUser();
      setState({ loadError: true });
      log('loading the current user failed', error);
      return null;
    }
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    initialize() {
      initializing ??= loadUser().then(() => setState({ initialized: true }));
      return initializing;
    },
    reloadUser: loadUser,
    async login(credentials, query) {
      try {
        const { user, antiCsrfToken } = await postLogin(client, credentials, query);
        client.setAntiCsrfToken(antiCsrfToken);
        setState({ user, loadError: false, initialized: true });
        startKeepAlive();
        return user;
      } catch (error) {
        clearUser();
        const entries = isApiError(error) ? parseAuthorizationErrors(error.headers) : null;
        throw entries ? new LoginAuthorizationError(entries, error) : error;
      }
    },
    async logout() {
      try {
        await getLogout(client);
      } catch (error) {
        log('logout request failed', error);
      } finally {
        client.setAntiCsrfToken(null);
        clearUser();
      }
    },
    setUser(user) {
      setState({ user });
    },
    dispose: stopKeepAlive,
  };
}
