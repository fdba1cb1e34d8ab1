import type { UnlockedKeys } from '@shared/crypto/service';
import type { User } from '@shared/contract/user';
import { describe, expect, it } from 'vitest';
import { authStore } from './auth';
import { cryptoApi, secuPassKeys } from './crypto';

const user = (uuid: string): User => ({
  uuid,
  id: 1,
  username: 'jane',
  email: 'jane@example.test',
  firstName: 'Jane',
  lastName: 'Doe',
  roleNames: [],
  language: 'en',
  totpEnabled: false,
});
const keys = { encryption: { handle: 'h1' }, signing: { handle: 'h2' } } as unknown as UnlockedKeys;

describe('web crypto wiring', () => {
  it('does not start the Worker just to lock (there is no Worker in Node: starting one would throw)', async () => {
    await expect(cryptoApi.lock()).resolves.toBeUndefined();
  });

  it('keeps unlocked keys for the signed-in user and forgets them when the user goes (logout, expiry)', async () => {
    authStore.setUser(user('u1'));
    secuPassKeys.unlocked('u1', keys);
    expect(secuPassKeys.get()).toEqual({ userUuid: 'u1', keys });
    authStore.setUser(null);
    expect(secuPassKeys.get()).toBeNull();
  });

  it('forgets them when another user signs in', () => {
    authStore.setUser(user('u1'));
    secuPassKeys.unlocked('u1', keys);
    authStore.setUser(user('u2'));
    expect(secuPassKeys.get()).toBeNull();
    authStore.setUser(null);
  });

  it('notifies subscribers on unlock and lock', async () => {
    const seen: Array<string | null> = [];
    const unsubscribe = secuPassKeys.subscribe(() => seen.push(secuPassKeys.get()?.userUuid ?? null));
    authStore.setUser(user('u3'));
    secuPassKeys.unlocked('u3', keys);
    await secuPassKeys.lock();
    unsubscribe();
    authStore.setUser(null);
    expect(seen).toEqual(['u3', null]);
  });
});
