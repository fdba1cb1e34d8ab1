import { createAuthStore, type AuthState } from '@shared/auth/auth-store';
import { useSyncExternalStore } from 'react';
import { apiClient } from './api-client';

/** The web client's auth state (SPEC §4); the store is framework-free, this file binds it to React. */
export const authStore = createAuthStore({ client: apiClient, redirect: (url) => window.location.assign(url) });

export function useAuthState(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.getState);
}
