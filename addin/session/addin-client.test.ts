import { createMemoryStorage } from '@shared/api/storage-adapter';
import { describe, expect, it } from 'vitest';
import { ADDIN_TOKEN_STORAGE_KEY, createAddinClient } from './addin-client';

function recorder() {
  const seen: Array<{ url: string; headers: Headers; credentials: RequestCredentials | undefined }> = [];
  const fetchStub: typeof fetch = async (input, init = {}) => {
    seen.push({ url: String(input), headers: new Headers(init.headers), credentials: init.credentials });
    return new Response('{"user":null}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { seen, fetchStub };
}

describe('createAddinClient', () => {
  it('sends the stored bearer token, never cookies, and keeps a Basic header of its own', async () => {
    const storage = createMemoryStorage();
    storage.setItem(ADDIN_TOKEN_STORAGE_KEY, 'tok-1');
    const { seen, fetchStub } = recorder();
    const addin = createAddinClient(storage, fetchStub);
    await addin.client.get('/user');
    await addin.client.request('POST', '/auth', { basicAuth: { username: 'a', password: 'b' } });
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-1');
    expect(seen[0]!.credentials).toBe('omit');
    expect(seen[1]!.headers.get('authorization')).toMatch(/^Basic /);
  });

  it('forgets the token everywhere on sign-out', async () => {
    const storage = createMemoryStorage();
    const { seen, fetchStub } = recorder();
    const addin = createAddinClient(storage, fetchStub);
    addin.setToken('tok-2');
    expect(storage.getItem(ADDIN_TOKEN_STORAGE_KEY)).toBe('tok-2');
    addin.setToken(null);
    expect(storage.getItem(ADDIN_TOKEN_STORAGE_KEY)).toBeNull();
    await addin.client.get('/user');
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });
});
