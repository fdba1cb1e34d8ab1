import { TRUST_PING_PATH, TRUST_SIGNATURE_ERROR, TRUST_MESSAGES, type TrustConnection } from '@shared/contract/trust-networks';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedTls } from '@tests/support/self-signed-tls';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyOf } from '../../server/trust-networks/connections';
import { TRUST_REFUSALS_PER_IP } from '../../server/trust-networks/ping';
import { generateTrustKeyPair, signRequest } from '../../server/trust-networks/signatures';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';
import { connectPair as connectServers, createTrust, testTrust, TRUST_LIST, trustOne, updateTrust, type TrustSide } from './trust-helpers';

// Trust networks, slice 1 (issue 30): two real servers — A on SQLite, B on PostgreSQL when
// KUVERT_TEST_DATABASE_URL is set (else SQLite too) — connected through their admin APIs as two
// administrators would, then the partner endpoint's refusals, each also in the audit log.

const LIST = TRUST_LIST;
const one = trustOne;

// Loopback partners: allow-listed and plain http allowed, as an operator would for internal partners.
const config = { outboundAllow: ['127.0.0.1'], outboundAllowHttp: true };

let a: TestServer;
let b: TestServer;
let adminA: Session;
let adminB: Session;
let userAdminA: Session; // ROLE_USER_ADMIN: an administrator of users, not of trust networks

beforeAll(async () => {
  a = await startTestServer({ config, sqlite: true });
  b = await startTestServer({ config });
  adminA = await signInAdmin(a);
  adminB = await signInAdmin(b);
  await createUserAsAdmin(a, adminA, { email: 'users@example.test', roleNames: ['ROLE_UI_USER', 'ROLE_USER_ADMIN'] });
  userAdminA = await signIn(a, 'users@example.test', 'Good-Passw0rd');
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const create = createTrust;
const update = updateTrust;
const test = testTrust;
const sideA = (): TrustSide => ({ server: a, admin: adminA, url: a.url, domains: ['partner-a.example'] });
const sideB = (): TrustSide => ({ server: b, admin: adminB, url: b.url, domains: ['partner-b.example'] });
const connectPair = () => connectServers(sideA(), sideB());

/** A ping to B signed as A's side of a connection would sign it. */
async function signedPing(connection: TrustConnection, options: { created?: Date; to?: string } = {}) {
  const row = await a.app.db.selectFrom('trust_connections').selectAll().where('uuid', '=', connection.connectionId).executeTakeFirstOrThrow();
  const url = `${b.url}${TRUST_PING_PATH}`;
  const body = JSON.stringify({ type: 'ping', to: options.to ?? connection.partnerKeyFingerprint });
  const { headers } = await signRequest(url, body, { privateKey: privateKeyOf(a.app, row), keyId: row.own_key_fingerprint, ...(options.created ? { created: options.created } : {}) });
  return { url, body, headers };
}

const post = (ping: { url: string; body: string; headers: Record<string, string> }) => fetch(ping.url, { method: 'POST', headers: ping.headers, body: ping.body });

async function refusedAuditReasons(server: TestServer, admin: Session): Promise<string[]> {
  const response = await call(server, admin, 'GET', '/api/2/admin/audit-log?action=trustNetwork.refused&pageSize=100');
  const { entries } = (await response.json()) as { entries: { details: { reason: string } }[] };
  return entries.map((entry) => entry.details.reason);
}

describe('who may manage connections', () => {
  it('only administrators: 401 without a session, 403 for a user administrator, 200 for ROLE_ADMIN', async () => {
    await expectBackendError(await call(a, null, 'GET', LIST), 401);
    await expectBackendError(await call(a, userAdminA, 'GET', LIST), 403, 'AccessDeniedException');
    await expectBackendError(await call(a, userAdminA, 'POST', LIST, { partnerUrl: b.url, partnerDomains: ['x.example'] }), 403, 'AccessDeniedException');
    expect((await call(a, adminA, 'GET', LIST)).status).toBe(200);
  });
});

describe('create and edit', () => {
  it('validates as SPEC §5 says: URL, domains, at least one domain, key length', async () => {
    const cases: [unknown, string][] = [
      [{ partnerUrl: 'not a url', partnerDomains: ['a.example'] }, TRUST_MESSAGES.invalidUrl],
      [{ partnerUrl: 'ftp://partner.example', partnerDomains: ['a.example'] }, TRUST_MESSAGES.invalidUrl],
      [{ partnerUrl: 'https://partner.example', partnerDomains: [] }, TRUST_MESSAGES.noDomain],
      [{ partnerUrl: 'https://partner.example', partnerDomains: ['not a domain'] }, TRUST_MESSAGES.invalidDomain],
      [{ partnerUrl: 'https://partner.example', partnerDomains: ['a.example'], partnerPublicKey: 'c2hvcnQ=' }, TRUST_MESSAGES.invalidKey],
      [{ partnerUrl: 'https://partner.example', partnerDomains: ['a.example'], partnerPublicKey: 'A'.repeat(45) }, TRUST_MESSAGES.invalidKey],
    ];
    for (const [body, message] of cases) {
      const error = await expectBackendError(await call(a, adminA, 'POST', LIST, body), 400, 'ValidationException');
      expect(JSON.stringify(error.metadata), JSON.stringify(body)).toContain(message);
    }
    await expectBackendError(await call(a, adminA, 'GET', one('00000000-0000-4000-8000-000000000000')), 404, 'NotFoundException');
  });

  it('makes its own key pair, keeps the private key sealed, and is pending until the partner key is entered', async () => {
    const created = await create(a, adminA, { partnerUrl: 'https://partner.example/', partnerDomains: ['Partner.Example', 'partner.example'] });
    expect(created).toMatchObject({ partnerUrl: 'https://partner.example', partnerDomains: ['partner.example'], status: 'pending', partnerPublicKey: null, lastTest: null });
    expect(created.ownPublicKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(created.ownKeyFingerprint).toMatch(/^[0-9a-f]{64}$/);
    const row = await a.app.db.selectFrom('trust_connections').selectAll().where('uuid', '=', created.connectionId).executeTakeFirstOrThrow();
    expect(row.own_private_key).toMatch(/^enc1:/);
    await expectBackendError(await call(a, adminA, 'POST', `${one(created.connectionId)}/test`), 409, 'ConflictException');

    const other = generateTrustKeyPair();
    const keyed = await update(a, adminA, created.connectionId, { partnerUrl: 'https://partner.example', partnerDomains: ['partner.example'], partnerPublicKey: other.publicKey });
    expect(keyed).toMatchObject({ status: 'testable', partnerKeyFingerprint: other.fingerprint });
    const own = await expectBackendError(await call(a, adminA, 'POST', LIST, { partnerUrl: 'https://p2.example', partnerDomains: ['p2.example'], partnerPublicKey: created.ownPublicKey }), 400);
    expect(own.metadata).toMatchObject({ problems: [{ field: 'partnerPublicKey', reason: 'ownKey' }] });
    const duplicate = await expectBackendError(await call(a, adminA, 'POST', LIST, { partnerUrl: 'https://p2.example', partnerDomains: ['p2.example'], partnerPublicKey: other.publicKey }), 400);
    expect(duplicate.metadata).toMatchObject({ problems: [{ field: 'partnerPublicKey', reason: 'duplicateKey' }] });

    expect((await call(a, adminA, 'DELETE', one(created.connectionId))).status).toBe(204);
    await expectBackendError(await call(a, adminA, 'GET', one(created.connectionId)), 404);
    const list = (await (await call(a, adminA, 'GET', LIST)).json()) as { connections: TrustConnection[] };
    expect(list.connections.map((c) => c.connectionId)).not.toContain(created.connectionId);
  });
});

describe('two servers connected by their administrators', () => {
  it('exchange keys, test on both sides: established', async () => {
    const { onA, onB } = await connectPair();
    expect(onA.status).toBe('testable');
    expect(onA.partnerKeyFingerprint).toBe(onB.ownKeyFingerprint);
    expect(onB.partnerKeyFingerprint).toBe(onA.ownKeyFingerprint);
    const testedA = await test(a, adminA, onA.connectionId);
    expect(testedA).toMatchObject({ status: 'established', lastTest: { ok: true, step: null, reason: null } });
    expect(await test(b, adminB, onB.connectionId)).toMatchObject({ status: 'established', lastTest: { ok: true, step: null } });
    // Shown in the list as well, not only in the answer.
    const list = (await (await call(a, adminA, 'GET', LIST)).json()) as { connections: TrustConnection[] };
    expect(list.connections.find((c) => c.connectionId === onA.connectionId)).toMatchObject({ status: 'established' });
  });

  it('refuses a tampered signature, a changed body, a replay and a stale request, each in the audit log', async () => {
    const { onA } = await connectPair();
    const good = await signedPing(onA);
    const signature = good.headers.signature!;
    const flipped = signature.replace(/:(.)/, (_m, c: string) => `:${c === 'A' ? 'B' : 'A'}`);
    const tampered = await expectBackendError(await post({ ...good, headers: { ...good.headers, signature: flipped } }), 401, TRUST_SIGNATURE_ERROR);
    expect(tampered.metadata).toEqual({ reason: 'badSignature' });

    const changedBody = await expectBackendError(await post({ ...good, body: JSON.stringify({ type: 'ping', to: `${onA.partnerKeyFingerprint} ` }) }), 401, TRUST_SIGNATURE_ERROR);
    expect(changedBody.metadata).toEqual({ reason: 'badDigest' });

    const first = await post(good);
    expect(first.status).toBe(200);
    expect(first.headers.get('signature-input')).toContain(`keyid="${onA.partnerKeyFingerprint}"`);
    const replay = await expectBackendError(await post(good), 401, TRUST_SIGNATURE_ERROR);
    expect(replay.metadata).toEqual({ reason: 'replayed' });

    const stale = await expectBackendError(await post(await signedPing(onA, { created: new Date(Date.now() - 10 * 60_000) })), 401, TRUST_SIGNATURE_ERROR);
    expect(stale.metadata).toEqual({ reason: 'clockSkew' });
    const future = await expectBackendError(await post(await signedPing(onA, { created: new Date(Date.now() + 10 * 60_000) })), 401, TRUST_SIGNATURE_ERROR);
    expect(future.metadata).toEqual({ reason: 'clockSkew' });

    const unsigned = await expectBackendError(await fetch(good.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: good.body }), 401, TRUST_SIGNATURE_ERROR);
    expect(unsigned.metadata).toEqual({ reason: 'missingSignature' });

    expect(await refusedAuditReasons(b, adminB)).toEqual(expect.arrayContaining(['badSignature', 'badDigest', 'replayed', 'clockSkew', 'missingSignature']));
  });

  it("refuses a deleted connection's key as revoked; the partner's test fails at the unknown key", async () => {
    const { onA, onB } = await connectPair();
    const ping = await signedPing(onA);
    expect((await call(b, adminB, 'DELETE', one(onB.connectionId))).status).toBe(204);
    const revoked = await expectBackendError(await post(ping), 401, TRUST_SIGNATURE_ERROR);
    expect(revoked.metadata).toEqual({ reason: 'revokedKey' });
    expect(await refusedAuditReasons(b, adminB)).toContain('revokedKey');
    expect(await test(a, adminA, onA.connectionId)).toMatchObject({ status: 'error', lastTest: { ok: false, step: 'unknownKey' } });
  });

  it('a wrong partner key, a partner URL that is not its public address, an unreachable partner, an untrusted certificate: error with the step', async () => {
    const { onA } = await connectPair();
    const wrongKey = await update(a, adminA, onA.connectionId, { partnerUrl: b.url, partnerDomains: ['partner-b.example'], partnerPublicKey: generateTrustKeyPair().publicKey });
    expect(wrongKey.status).toBe('testable');
    const wrong = await test(a, adminA, onA.connectionId);
    expect(wrong).toMatchObject({ status: 'error', lastTest: { ok: false, step: 'unknownKey' } });
    expect(wrong.lastTest?.reason).toMatch(/does not know/);

    // B's key again, but B called by another name than its public URL: the signed target URI differs.
    const onB = (await (await call(b, adminB, 'GET', LIST)).json()) as { connections: TrustConnection[] };
    const partner = onB.connections.find((c) => c.partnerKeyFingerprint === onA.ownKeyFingerprint)!;
    const otherName = b.url.replace('127.0.0.1', 'localhost');
    await update(a, adminA, onA.connectionId, { partnerUrl: otherName, partnerDomains: ['partner-b.example'], partnerPublicKey: partner.ownPublicKey });
    expect(await test(a, adminA, onA.connectionId)).toMatchObject({ status: 'error', lastTest: { ok: false, step: 'badSignature' } });

    await update(a, adminA, onA.connectionId, { partnerUrl: 'http://127.0.0.1:1', partnerDomains: ['partner-b.example'], partnerPublicKey: partner.ownPublicKey });
    const unreachable = await test(a, adminA, onA.connectionId);
    expect(unreachable).toMatchObject({ status: 'error', lastTest: { ok: false, step: 'unreachable', reason: 'The connection was refused' } });
    // A partner whose certificate is not trusted: the TLS step, not "unreachable".
    const tls = createHttpsServer(selfSignedTls(), (_request, response) => response.end('{}'));
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      await update(a, adminA, onA.connectionId, { partnerUrl: `https://127.0.0.1:${(tls.address() as AddressInfo).port}`, partnerDomains: ['partner-b.example'], partnerPublicKey: partner.ownPublicKey });
      expect(await test(a, adminA, onA.connectionId)).toMatchObject({ status: 'error', lastTest: { ok: false, step: 'tls', reason: 'The TLS certificate was not accepted' } });
    } finally {
      await new Promise((resolve) => tls.close(resolve));
    }

    await update(a, adminA, onA.connectionId, { partnerUrl: 'http://127.0.0.1:1', partnerDomains: ['partner-b.example'], partnerPublicKey: partner.ownPublicKey });
    await test(a, adminA, onA.connectionId);
    // Kept on the connection: the list shows it too.
    expect((await (await call(a, adminA, 'GET', one(onA.connectionId))).json()) as TrustConnection).toMatchObject({ status: 'error', lastTest: { step: 'unreachable' } });
  });

  it('without KUVERT_OUTBOUND_ALLOW_HTTP a plain http partner is not called: the test ends in error at "unreachable", saying why', async () => {
    const strict = await startTestServer({ config: { outboundAllow: ['127.0.0.1'] }, sqlite: true });
    try {
      const admin = await signInAdmin(strict);
      const partner = await create(b, adminB, { partnerUrl: strict.url, partnerDomains: ['strict.example'] });
      const onStrict = await create(strict, admin, { partnerUrl: b.url, partnerDomains: ['partner-b.example'], partnerPublicKey: partner.ownPublicKey });
      const tested = await test(strict, admin, onStrict.connectionId);
      expect(tested).toMatchObject({ status: 'error', lastTest: { ok: false, step: 'unreachable' } });
      expect(tested.lastTest?.reason).toContain('KUVERT_OUTBOUND_ALLOW_HTTP');
    } finally {
      await strict.close();
    }
  });

  // Last in the file: it uses up this client address's refusals on B for the window.
  it('a client address that keeps being refused gets 429 and writes no more to the audit log', async () => {
    const unsigned = () => fetch(`${b.url}${TRUST_PING_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'ping', to: 'x' }) });
    const statuses: number[] = [];
    for (let i = 0; i < TRUST_REFUSALS_PER_IP.limit; i += 1) statuses.push((await unsigned()).status);
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThan(0);
    const limited = await unsigned();
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    await expectBackendError(limited, 429, 'RateLimitExceededException');
    expect((await refusedAuditReasons(b, adminB)).length).toBeLessThanOrEqual(TRUST_REFUSALS_PER_IP.limit);
  });
});
