// Trust-network connections between test servers, made through the admin APIs as two administrators would.
import type { TrustConnection } from '@shared/contract/trust-networks';
import type { TestServer } from '@tests/support/server';
import { expect } from 'vitest';
import { call, type Session } from './core-helpers';

export const TRUST_LIST = '/api/2/admin/trust-networks';
export const trustOne = (id: string) => `${TRUST_LIST}/${id}`;

export async function createTrust(server: TestServer, admin: Session, body: unknown): Promise<TrustConnection> {
  const response = await call(server, admin, 'POST', TRUST_LIST, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as TrustConnection;
}

export async function updateTrust(server: TestServer, admin: Session, id: string, body: unknown): Promise<TrustConnection> {
  const response = await call(server, admin, 'PUT', trustOne(id), body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as TrustConnection;
}

export async function testTrust(server: TestServer, admin: Session, id: string): Promise<TrustConnection> {
  const response = await call(server, admin, 'POST', `${trustOne(id)}/test`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as TrustConnection;
}

export interface TrustSide {
  server: TestServer;
  admin: Session;
  /** The address the partner calls this server by (its public URL). */
  url: string;
  /** The email domains this side serves (the partner lists them). */
  domains: string[];
}

/** Both administrators create their side and enter each other's key (the partner URL is the other's public URL). */
export async function connectPair(a: TrustSide, b: TrustSide): Promise<{ onA: TrustConnection; onB: TrustConnection }> {
  const onA = await createTrust(a.server, a.admin, { partnerUrl: b.url, partnerDomains: b.domains });
  const onB = await createTrust(b.server, b.admin, { partnerUrl: a.url, partnerDomains: a.domains, partnerPublicKey: onA.ownPublicKey });
  const keyed = await updateTrust(a.server, a.admin, onA.connectionId, { partnerUrl: b.url, partnerDomains: b.domains, partnerPublicKey: onB.ownPublicKey });
  return { onA: keyed, onB };
}

/** Connected and tested on both sides: established. */
export async function establishPair(a: TrustSide, b: TrustSide): Promise<{ onA: TrustConnection; onB: TrustConnection }> {
  const { onA, onB } = await connectPair(a, b);
  expect(await testTrust(a.server, a.admin, onA.connectionId)).toMatchObject({ status: 'established' });
  expect(await testTrust(b.server, b.admin, onB.connectionId)).toMatchObject({ status: 'established' });
  return { onA, onB };
}
