import { getConfigProfile, type ConfigProfile } from '@shared/api/endpoints/config-profile';
import { useSyncExternalStore } from 'react';
import { apiClient } from './api-client';

export type ConfigState =
  | { status: 'loading'; config: ConfigProfile }
  | { status: 'loaded'; config: ConfigProfile }
  | { status: 'error'; config: ConfigProfile };

const listeners = new Set<() => void>();
let state: ConfigState = { status: 'loading', config: {} };
let loading: Promise<ConfigState> | null = null;

function setState(next: ConfigState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Loads the configuration profile once (SPEC §4: loading → loaded or error; failure only logged). */
export function loadConfig(): Promise<ConfigState> {
  loading ??= getConfigProfile(apiClient).then(
    (config) => {
      setState({ status: 'loaded', config });
      return state;
    },
    (error: unknown) => {
      console.error('Loading the configuration profile failed', error);
      setState({ status: 'error', config: {} });
      return state;
    },
  );
  return loading;
}

/** Loads the profile again (after an administrator changed the theme or title): the shell follows at once. */
export function reloadConfig(): Promise<ConfigState> {
  loading = null;
  return loadConfig();
}

export const getConfigState = (): ConfigState => state;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export function useConfigState(): ConfigState {
  return useSyncExternalStore(subscribe, getConfigState);
}

/** One configuration value as a string ('' when missing). */
export function configString(config: ConfigProfile, key: string): string {
  const value = config[key];
  return value === null || value === undefined ? '' : String(value);
}

/** Config booleans may arrive as true/"true". */
export function configFlag(config: ConfigProfile, key: string): boolean {
  const value = config[key];
  return value === true || value === 'true';
}
