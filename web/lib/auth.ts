import { createAuthStore, type AuthState } from '@shared/auth/auth-store';
import { SIGNED_IN_HINT_COOKIE } from '@shared/contract/auth';
import { useSyncExternalStore } from 'react';
import { apiClient } from './api-client';

/** The web client's auth state (SPEC §4); the store is framework-free, this file binds it to React. */
/**
 * Nobody can be signed in: the server's signed-in hint cookie is absent (it comes and goes with the
 * session cookie) and no anti-forgery value is stored (a session from before the hint existed keeps
 * one). Then GET /user is not asked, so a signed-out page load logs no 401 (web/README "Expected
 * answers in the console").
 */
const knownSignedOut = (): boolean =>
  !document.cookie.split(';').some((part) => part.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`)) && !apiClient.getAntiCsrfToken();

export const authStore = createAuthStore({ client: apiClient, redirect: (url) => window.location.assign(url), knownSignedOut });

export function useAuthState(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.getState);
}
