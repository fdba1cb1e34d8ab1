import { createApiClient, type ApiClient } from '@shared/api/client';
import { postSecuPass } from '@shared/api/endpoints/secupass';
import { createCryptoService, type CryptoApi, type UnlockedKeys } from '@shared/crypto/service';
import { MemoryKeyPinStore } from '@shared/crypto/key-pinning';
import type { E2eOptions } from '@shared/transfer';
import type { TestServer } from '@tests/support/server';
import { call, createUserAsAdmin, signIn, type Session } from './core-helpers';

/**
 * One "browser" of an E2E test: a session, the product's ApiClient over Node's fetch with the
 * session cookie, its own CryptoService (the same code the Worker runs) and its own pins.
 */
export interface E2eActor {
  session: Session;
  client: ApiClient;
  /** fetch with the session cookie (downloads). */
  fetch: typeof fetch;
  crypto: CryptoApi;
  pins: MemoryKeyPinStore;
  userUuid: string;
  keys?: UnlockedKeys;
}

export function sessionClient(server: TestServer, session: Session): { client: ApiClient; fetch: typeof fetch } {
  const withCookie: typeof fetch = (input, init = {}) =>
    fetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), cookie: session.cookie } });
  const client = createApiClient({ backendUrl: server.url, fetch: withCookie });
  client.setAntiCsrfToken(session.csrf);
  return { client, fetch: withCookie };
}

export async function e2eActor(server: TestServer, session: Session): Promise<E2eActor> {
  const me = (await (await call(server, session, 'GET', '/api/2/user')).json()) as { user: { uuid: string } };
  return { session, ...sessionClient(server, session), crypto: createCryptoService(), pins: new MemoryKeyPinStore(), userUuid: me.user.uuid };
}

/** Sets a SecuPass (real Argon2id, real key pairs) and keeps the unlocked keys, as the web client does. */
export async function giveSecuPass(actor: E2eActor, passphrase: string): Promise<UnlockedKeys> {
  const { blob, keys } = await actor.crypto.setupSecuPass({ userId: actor.userUuid, passphrase });
  await postSecuPass(actor.client, { blob, publicKeys: blob.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey })) });
  actor.keys = keys;
  return keys;
}

/**
 * Accounts made by the administrator, each signed in as an E2E actor with a SecuPass (the setup most
 * E2E room suites repeat): name → actor; `email(name)` is the address, the password the default.
 */
export async function e2eActorsWithSecuPass<N extends string>(server: TestServer, admin: Session, names: readonly N[], email: (name: N) => string, passphrase: (name: N) => string): Promise<Record<N, E2eActor>> {
  const actors = {} as Record<N, E2eActor>;
  for (const name of names) {
    await createUserAsAdmin(server, admin, { email: email(name) });
    actors[name] = await e2eActor(server, await signIn(server, email(name), 'Good-Passw0rd'));
    await giveSecuPass(actors[name], passphrase(name));
  }
  return actors;
}

export function e2eOf(actor: E2eActor, extra: Partial<E2eOptions> = {}): E2eOptions {
  if (!actor.keys) throw new Error('actor has no SecuPass');
  return { crypto: actor.crypto, keys: actor.keys, pins: actor.pins, ...extra };
}
