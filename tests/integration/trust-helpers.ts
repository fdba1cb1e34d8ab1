// Trust-network connections between test servers, made through the admin APIs as two administrators would.
import type { TrustConnection } from '@shared/contract/trust-networks';
import type { TestServer } from '@tests/support/server';
import { expect } from 'vitest';
import { privateKeyOf } from '../../server/trust-networks/connections';
import { signRequest } from '../../server/trust-networks/signatures';
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

/** Runs every due job of the servers in turn (and the ones retried later, as if their time had come). */
export async function runTrustJobs(servers: readonly TestServer[]): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    for (const server of servers) {
      await server.app.db.updateTable('jobs').set({ run_at: 0 }).where('state', '=', 'pending').where('unique_key', 'is', null).execute();
      server.app.jobs.kick();
      await server.app.jobs.whenIdle();
    }
  }
}

/** The sender's transfer row of one of its deliveries. */
export async function transferOf(server: TestServer, deliveryUuid: string) {
  return server.app.db
    .selectFrom('trust_transfers')
    .innerJoin('deliveries', 'deliveries.id', 'trust_transfers.delivery_id')
    .selectAll('trust_transfers')
    .where('deliveries.uuid', '=', deliveryUuid)
    .executeTakeFirstOrThrow();
}

/** A JSON POST to `url` signed as `from`'s side of the connection would sign it. */
export async function signedPost(from: TestServer, connectionId: string, url: string, body: unknown): Promise<Response> {
  const row = await from.app.db.selectFrom('trust_connections').selectAll().where('uuid', '=', connectionId).executeTakeFirstOrThrow();
  const text = JSON.stringify(body);
  const { headers } = await signRequest(url, text, { privateKey: privateKeyOf(from.app, row), keyId: row.own_key_fingerprint });
  return fetch(url, { method: 'POST', headers, body: text });
}
