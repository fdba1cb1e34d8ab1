import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ListUsersResponse } from '@shared/contract/admin-users';
import type { AuditLogResponse } from '@shared/contract/audit';
import type { AccessDescriptorResponse, OwnSecuPassResponse, SecuPassPolicy, SetSecuPassBody, UserPublicKeysResponse, WrappedFileKeyWire } from '@shared/contract/secupass';
import { RecipientKeyNotLiveError } from '@server/secupass/secupass-repository';
import { PUBLIC_KEYS_LOOKUP_LIMIT } from '@server/routes/secupass-routes';
import { DELIVERY_PATHS } from '@shared/contract/deliveries';
import { createApiClient, type ApiClient } from '@shared/api/client';
import {
  getAdminAuditLog,
  getAdminUsers,
  getOwnAccessDescriptor,
  getOwnSecuPass,
  getSecuPassPolicy,
  getUserPublicKeys,
  postAdminSecuPassReset,
  postSecuPass,
  putSecuPass,
} from '@shared/api/endpoints/secupass';
import { wrapFileKey, generateFileKey } from '@shared/crypto/file-key';
import { fromBase64Url } from '@shared/crypto/bytes';
import { importPublicKey } from '@shared/crypto/keys';
import { changeSecuPass, setupSecuPass, writeLegacyV2Blob, type SecuPassBlobV3 } from '@shared/crypto/secupass';
import { createCryptoService } from '@shared/crypto/service';
import { addressedTo, waitForMailboxMail } from '@tests/support/mailbox';
import { filesUnder } from '@tests/support/files';
import { startTestServer, type TestServer } from '@tests/support/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUserAsAdmin, expectBackendError, signIn, signInAdmin, type Session } from './core-helpers';

/**
 * SecuPass on the real server (SQLite, or PostgreSQL with KUVERT_TEST_DATABASE_URL): blobs
 * are made with the real shared/crypto, so the shapes are the ones browsers upload.
 */

const API = '/api/2';
const OWN = `${API}/user/secupass`;
const MARKER_PASSPHRASE = 'Marker-SecuPass-9f4c2e-Zebra-Quartz';
const MARKER_PASSPHRASE_2 = 'Second-Marker-SecuPass-71b3d0-Lantern';

let server: TestServer;
let admin: Session;
let alice: Session;
let bob: Session;
let userAdmin: Session;
let aliceUuid: string;
let adminUuid: string;

const json = async <T>(response: Response, status = 200): Promise<T> => {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
};
const uuidOf = async (session: Session) => (await json<{ user: { uuid: string } }>(await call(server, session, 'GET', `${API}/user`))).user.uuid;
const bodyOf = (blob: SecuPassBlobV3 | { keys: SecuPassBlobV3['keys'] }, extra: object = {}): SetSecuPassBody =>
  ({ blob, publicKeys: blob.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey })), ...extra }) as SetSecuPassBody;
const sha256Hex = (base64Url: string) => createHash('sha256').update(Buffer.from(base64Url, 'base64url')).digest('hex');


beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  await createUserAsAdmin(server, admin, { email: 'alice@example.test', language: 'de', firstName: 'Alice', lastName: 'Liddell' });
  await createUserAsAdmin(server, admin, { email: 'bob@example.test' });
  await createUserAsAdmin(server, admin, { email: 'ua@example.test', roleNames: ['ROLE_USER_ADMIN', 'ROLE_UI_USER'] });
  alice = await signIn(server, 'alice@example.test', 'Good-Passw0rd');
  bob = await signIn(server, 'bob@example.test', 'Good-Passw0rd');
  userAdmin = await signIn(server, 'ua@example.test', 'Good-Passw0rd');
  aliceUuid = await uuidOf(alice);
  adminUuid = await uuidOf(admin);
  // Key look-ups are for people who share a delivery: alice sends bob one and drafts one to the administrator.
  const { deliveryUuid } = await json<{ deliveryUuid: string }>(
    await call(server, alice, 'POST', `${API}${DELIVERY_PATHS.create}`, { recipients: ['bob@example.test'], subject: 'Keys', body: 'Hello Bob.', securityLevel: 10 }),
    201,
  );
  await json(await call(server, alice, 'POST', `${API}${DELIVERY_PATHS.send(deliveryUuid)}`));
  await json(await call(server, alice, 'POST', `${API}${DELIVERY_PATHS.create}`, { recipients: [server.admin.email], subject: 'Draft', body: 'Hello.', securityLevel: 10 }), 201);
});
afterAll(() => server?.close());

it('runs on the database the environment asks for', () => {
  expect(server.app.databaseKind).toBe(process.env.KUVERT_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
});

describe('policy', () => {
  it('is public, has the defaults, and follows the admin settings', async () => {
    const policy = await json<SecuPassPolicy>(await call(server, null, 'GET', `${API}/secupass/policy`));
    expect(policy).toEqual({ minLength: 12, requireLowercase: true, requireUppercase: true, requireDigit: true, requireSpecial: false, minStrength: 3 });
    await json(await call(server, admin, 'PUT', `${API}/admin/settings`, { 'ftapi.secupass.policy.minLength': 16, 'ftapi.secupass.policy.requireSpecial': true }));
    const changed = await json<SecuPassPolicy>(await call(server, null, 'GET', `${API}/secupass/policy`));
    expect(changed).toMatchObject({ minLength: 16, requireSpecial: true });
    await json(await call(server, admin, 'PUT', `${API}/admin/settings`, { 'ftapi.secupass.policy.minLength': 12, 'ftapi.secupass.policy.requireSpecial': false }));
  });

  it('refuses out-of-range policy settings (400)', async () => {
    for (const bad of [{ 'ftapi.secupass.policy.minStrength': 5 }, { 'ftapi.secupass.policy.minLength': 0 }, { 'ftapi.secupass.policy.minLength': 12.5 }, { 'ftapi.secupass.policy.requireDigit': 'yes' }]) {
      await expectBackendError(await call(server, admin, 'PUT', `${API}/admin/settings`, bad), 400, 'ValidationException');
    }
  });
});

describe('set, read, change', () => {
  let first: SecuPassBlobV3;
  let fingerprints: { encryption: string; signing: string };

  it('starts with no SecuPass', async () => {
    expect(await json<OwnSecuPassResponse>(await call(server, alice, 'GET', OWN))).toEqual({ state: 'none', version: null, blob: null, publicKeys: [], updatedAt: null });
  });

  it('a change before any set answers 404 AccessDescriptorNotFoundException', async () => {
    const { blob } = await setupSecuPass({ userId: await uuidOf(bob), passphrase: MARKER_PASSPHRASE });
    await expectBackendError(await call(server, bob, 'PUT', OWN, bodyOf(blob)), 404, 'AccessDescriptorNotFoundException');
  });

  it('sets (201) and reads back the same blob and public keys', async () => {
    const crypto = createCryptoService();
    const { blob, keys } = await crypto.setupSecuPass({ userId: aliceUuid, passphrase: MARKER_PASSPHRASE });
    first = blob;
    fingerprints = { encryption: keys.encryption.fingerprint, signing: keys.signing.fingerprint };
    const created = await json<OwnSecuPassResponse>(await call(server, alice, 'POST', OWN, bodyOf(blob)), 201);
    expect(created).toMatchObject({ state: 'active', version: 3, blob });
    expect(created.publicKeys).toHaveLength(2);
    const read = await json<OwnSecuPassResponse>(await call(server, alice, 'GET', OWN));
    expect(read.blob).toEqual(blob);
    expect(new Set(read.publicKeys.map((k) => k.publicKey))).toEqual(new Set([keys.encryption.publicKey, keys.signing.publicKey]));
    expect(read.updatedAt).toBeGreaterThan(0);
  });

  it('refuses a second set while active (409 ConflictException)', async () => {
    const { blob } = await setupSecuPass({ userId: aliceUuid, passphrase: MARKER_PASSPHRASE_2 });
    await expectBackendError(await call(server, alice, 'POST', OWN, bodyOf(blob)), 409, 'ConflictException');
    expect((await json<OwnSecuPassResponse>(await call(server, alice, 'GET', OWN))).blob).toEqual(first);
  });

  it('refuses a replacement with other public keys (400 ValidationException)', async () => {
    const { blob } = await setupSecuPass({ userId: aliceUuid, passphrase: MARKER_PASSPHRASE_2 });
    await expectBackendError(await call(server, alice, 'PUT', OWN, bodyOf(blob)), 400, 'ValidationException');
    expect((await json<OwnSecuPassResponse>(await call(server, alice, 'GET', OWN))).blob).toEqual(first);
  });

  it('replaces the blob when the key pairs stay (passphrase change)', async () => {
    const { blob } = await changeSecuPass({ userId: aliceUuid, blob: first, currentPassphrase: MARKER_PASSPHRASE, newPassphrase: MARKER_PASSPHRASE_2 });
    expect(blob.kdf.salt).not.toBe(first.kdf.salt);
    const replaced = await json<OwnSecuPassResponse>(await call(server, alice, 'PUT', OWN, bodyOf(blob)));
    expect(replaced).toMatchObject({ state: 'active', version: 3, blob });
    // The new blob opens with the new passphrase (the server stored exactly what was sent).
    const crypto = createCryptoService();
    const unlocked = await crypto.unlockSecuPass({ userId: aliceUuid, blob: replaced.blob, passphrase: MARKER_PASSPHRASE_2 });
    expect(unlocked.keys.encryption.fingerprint).toBe(fingerprints.encryption);
  });

  it("another user reads the public keys; the fingerprint is SHA-256 of the SPKI", async () => {
    const answer = await json<UserPublicKeysResponse>(await call(server, bob, 'GET', `${API}/users/${aliceUuid}/public-keys`));
    expect(answer.userUuid).toBe(aliceUuid);
    expect(answer.email).toBe('alice@example.test');
    expect(answer.keys).toHaveLength(2);
    for (const key of answer.keys) {
      expect(key.fingerprint).toBe(sha256Hex(key.publicKey));
      expect(key.fingerprint).toBe(fingerprints[key.usage]);
    }
  });

  it('a user without SecuPass has no keys; an unknown user is 404 NotFoundException', async () => {
    expect((await json<UserPublicKeysResponse>(await call(server, alice, 'GET', `${API}/users/${adminUuid}/public-keys`))).keys).toEqual([]);
    await expectBackendError(await call(server, alice, 'GET', `${API}/users/00000000-0000-4000-8000-000000000000/public-keys`), 404, 'NotFoundException');
  });

  it('only oneself and people sharing a delivery: a stranger gets 404 like an unknown id (no directory of ids and addresses)', async () => {
    // ua@ shares no delivery with alice; the administrator only has alice's draft addressed to them (not sent).
    const stranger = await expectBackendError(await call(server, userAdmin, 'GET', `${API}/users/${aliceUuid}/public-keys`), 404, 'NotFoundException');
    expect(JSON.stringify(stranger)).not.toContain('alice@example.test');
    await expectBackendError(await call(server, admin, 'GET', `${API}/users/${aliceUuid}/public-keys`), 404, 'NotFoundException');
    expect((await json<UserPublicKeysResponse>(await call(server, alice, 'GET', `${API}/users/${aliceUuid}/public-keys`))).keys).toHaveLength(2);
    // Bob received alice's delivery: he may check her signing key; alice may ask about bob, her recipient.
    expect((await json<UserPublicKeysResponse>(await call(server, bob, 'GET', `${API}/users/${aliceUuid}/public-keys`))).email).toBe('alice@example.test');
    expect((await json<UserPublicKeysResponse>(await call(server, alice, 'GET', `${API}/users/${await uuidOf(bob)}/public-keys`))).email).toBe('bob@example.test');
  });

  it('is rate limited per caller (429 in the SPEC §8 shape with Retry-After), other callers go on', async () => {
    const bobId = (await server.app.users.findByLogin('bob@example.test'))!.id;
    const now = Date.now();
    await server.app.db
      .insertInto('rate_limit_events')
      .values(Array.from({ length: PUBLIC_KEYS_LOOKUP_LIMIT.limit }, () => ({ bucket: 'public-keys:user', subject: String(bobId), created_at: now })))
      .execute();
    try {
      const refused = await call(server, bob, 'GET', `${API}/users/${aliceUuid}/public-keys`);
      await expectBackendError(refused, 429, 'RateLimitExceededException');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await call(server, alice, 'GET', `${API}/users/${aliceUuid}/public-keys`)).status).toBe(200);
    } finally {
      await server.app.db.deleteFrom('rate_limit_events').where('bucket', '=', 'public-keys:user').execute();
    }
  });
});

describe('who may call', () => {
  const userRoutes: Array<[string, string]> = [
    ['GET', OWN],
    ['POST', OWN],
    ['PUT', OWN],
    ['GET', `${API}/users/x1/public-keys`],
    ['GET', `${API}/user/access-descriptors/x1`],
  ];
  const adminRoutes: Array<[string, string]> = [
    ['POST', `${API}/admin/users/x1/secupass/reset`],
    ['GET', `${API}/admin/users`],
    ['GET', `${API}/admin/audit-log`],
  ];

  it('anonymous callers get 401 on every route but the policy', async () => {
    for (const [method, path] of [...userRoutes, ...adminRoutes]) {
      await expectBackendError(await call(server, null, method, path, method === 'GET' ? undefined : {}), 401, 'AuthenticationRequiredException');
    }
    expect((await call(server, null, 'GET', `${API}/secupass/policy`)).status).toBe(200);
  });

  it('a user without an admin role gets 403 on the admin routes', async () => {
    for (const [method, path] of adminRoutes) {
      await expectBackendError(await call(server, bob, method, path.replace('x1', aliceUuid)), 403, 'AccessDeniedException');
    }
  });

  it('a user administrator lists users and resets SecuPass, but reads no audit log and resets no administrator', async () => {
    expect((await call(server, userAdmin, 'GET', `${API}/admin/users`)).status).toBe(200);
    await expectBackendError(await call(server, userAdmin, 'GET', `${API}/admin/audit-log`), 403, 'AccessDeniedException');
    await expectBackendError(await call(server, userAdmin, 'POST', `${API}/admin/users/${adminUuid}/secupass/reset`), 403, 'AccessDeniedException');
  });

  it('state-changing calls need the anti-forgery value', async () => {
    await expectBackendError(await call(server, alice, 'POST', OWN, {}, { csrf: null }), 403, 'CsrfTokenException');
    await expectBackendError(await call(server, admin, 'POST', `${API}/admin/users/${aliceUuid}/secupass/reset`, undefined, { csrf: null }), 403, 'CsrfTokenException');
  });
});

describe('bad input answers 400 with the error object, never 5xx', () => {
  let valid: SecuPassBlobV3;
  beforeAll(async () => {
    valid = (await setupSecuPass({ userId: await uuidOf(bob), passphrase: MARKER_PASSPHRASE })).blob;
  });

  const bodies = (): Array<[string, unknown]> => {
    const body = bodyOf(valid);
    const [enc, sig] = body.publicKeys as [SetSecuPassBody['publicKeys'][number], SetSecuPassBody['publicKeys'][number]];
    return [
      ['no body', undefined],
      ['empty object', {}],
      ['an array', [1, 2]],
      ['a string', 'junk'],
      ['null blob', { blob: null, publicKeys: body.publicKeys }],
      ['unknown version', { ...body, blob: { ...valid, version: 4 } }],
      ['extra field', { ...body, extra: 1 }],
      ['weak memory', { ...body, blob: { ...valid, kdf: { ...valid.kdf, memoryKiB: 1024 } } }],
      ['weak iterations', { ...body, blob: { ...valid, kdf: { ...valid.kdf, iterations: 1 } } }],
      ['zero parallelism', { ...body, blob: { ...valid, kdf: { ...valid.kdf, parallelism: 0 } } }],
      ['absurd memory', { ...body, blob: { ...valid, kdf: { ...valid.kdf, memoryKiB: 2 ** 40 } } }],
      ['float iterations', { ...body, blob: { ...valid, kdf: { ...valid.kdf, iterations: 3.5 } } }],
      ['short salt', { ...body, blob: { ...valid, kdf: { ...valid.kdf, salt: 'AAAA' } } }],
      ['pbkdf2 in v3', { ...body, blob: { ...valid, kdf: { name: 'pbkdf2-sha256', iterations: 600000, salt: valid.kdf.salt } } }],
      ['not base64url', { ...body, blob: { ...valid, kdf: { ...valid.kdf, salt: 'a+b/c=' } } }],
      ['one public key', { ...body, publicKeys: [enc] }],
      ['two encryption keys', { ...body, publicKeys: [enc, { ...sig, usage: 'encryption' }] }],
      ['key id not of the key', { ...body, publicKeys: [{ ...enc, keyId: sig.keyId }, { ...sig, keyId: enc.keyId }] }],
      ['junk public key', { ...body, publicKeys: [{ ...enc, publicKey: 'AAAA' }, sig] }],
      ['public keys not the wrapped ones', { blob: valid, publicKeys: bodyOf({ keys: [] }).publicKeys }],
      ['wrapped keys not the public keys', { ...body, blob: { ...valid, keys: [valid.keys[0]] } }],
      ['unknown usage', { ...body, publicKeys: [{ ...enc, usage: 'decryption' }, sig] }],
      ['huge key list', { ...body, publicKeys: Array.from({ length: 50 }, () => enc) }],
    ];
  };

  it('POST', async () => {
    for (const [name, body] of bodies()) {
      const response = await call(server, bob, 'POST', OWN, body);
      expect(response.status, `${name}: ${await response.clone().text()}`).toBe(400);
      await expectBackendError(response, 400, 'ValidationException');
    }
    expect((await json<OwnSecuPassResponse>(await call(server, bob, 'GET', OWN))).state).toBe('none');
  });

  it('a v2 blob is refused on POST and PUT (read only)', async () => {
    const bobUuid = await uuidOf(bob);
    const { generateWrappableKeyPair } = await import('@shared/crypto/keys');
    const keys = [
      { usage: 'encryption' as const, ...(await generateWrappableKeyPair('encryption')) },
      { usage: 'signing' as const, ...(await generateWrappableKeyPair('signing')) },
    ];
    const v2 = await writeLegacyV2Blob({ userId: bobUuid, passphrase: MARKER_PASSPHRASE, iterations: 100_000, keys });
    const body = { blob: v2, publicKeys: v2.keys.map(({ keyId, usage, publicKey }) => ({ keyId, usage, publicKey })) };
    const refused = await expectBackendError(await call(server, bob, 'POST', OWN, body), 400, 'ValidationException');
    expect(JSON.stringify(refused.metadata)).toMatch(/version 3/);
    await expectBackendError(await call(server, alice, 'PUT', OWN, body), 400, 'ValidationException');
  });

  it('PUT, path and query junk', async () => {
    for (const [name, body] of bodies()) {
      const response = await call(server, alice, 'PUT', OWN, body);
      expect(response.status, `${name}: ${await response.clone().text()}`).toBe(400);
    }
    await expectBackendError(await call(server, admin, 'GET', `${API}/admin/users?pageSize=0`), 400, 'ValidationException');
    await expectBackendError(await call(server, admin, 'GET', `${API}/admin/users?page=abc`), 400, 'ValidationException');
    await expectBackendError(await call(server, admin, 'GET', `${API}/admin/users?nope=1`), 400, 'ValidationException');
    await expectBackendError(await call(server, admin, 'GET', `${API}/admin/audit-log?pageSize=1000`), 400, 'ValidationException');
    // Over-long path parameters: the router's 414 (over 100 characters), with the error object.
    for (const response of [
      await call(server, alice, 'GET', `${API}/users/${'x'.repeat(300)}/public-keys`),
      await call(server, admin, 'POST', `${API}/admin/users/${'x'.repeat(300)}/secupass/reset`),
      await call(server, alice, 'GET', `${API}/user/access-descriptors/${'x'.repeat(300)}`),
    ]) {
      await expectBackendError(response, 414);
    }
    await expectBackendError(await call(server, admin, 'POST', `${API}/admin/users/not-a-user/secupass/reset`), 404, 'NotFoundException');
    await expectBackendError(await call(server, alice, 'GET', `${API}/user/access-descriptors/%27%20or%201%3D1`), 404, 'AccessDescriptorNotFoundException');
  });
});

describe('admin reset', () => {
  let descriptorId: string;
  let keysBefore: UserPublicKeysResponse['keys'];

  it('before: the recipient reads her wrapped copy; nobody else does', async () => {
    keysBefore = (await json<UserPublicKeysResponse>(await call(server, bob, 'GET', `${API}/users/${aliceUuid}/public-keys`))).keys;
    const encryption = keysBefore.find((k) => k.usage === 'encryption')!;
    const binding = { contextId: 'delivery-1', fileId: 'file-1', recipientKeyId: encryption.keyId };
    const wrapped = await wrapFileKey({
      fileKey: generateFileKey(),
      recipientPublicKey: await importPublicKey(fromBase64Url(encryption.publicKey), 'encryption'),
      binding,
    });
    const aliceRow = (await server.app.users.findByUuid(aliceUuid))!;
    descriptorId = await server.app.secupass.addAccessDescriptor({
      recipientUserId: aliceRow.id,
      recipientKeyId: encryption.keyId,
      resourceKind: 'delivery',
      resourceId: binding.contextId,
      fileId: binding.fileId,
      wrappedKey: wrapped,
    });
    const read = await json<AccessDescriptorResponse>(await call(server, alice, 'GET', `${API}/user/access-descriptors/${descriptorId}`));
    expect(read.accessDescriptor).toMatchObject({ id: descriptorId, recipientKeyId: encryption.keyId, resourceKind: 'delivery', wrappedKey: wrapped });
    await expectBackendError(await call(server, bob, 'GET', `${API}/user/access-descriptors/${descriptorId}`), 404, 'AccessDescriptorNotFoundException');
    // Copies go to the recipient's live encryption key only.
    const signing = keysBefore.find((k) => k.usage === 'signing')!;
    await expect(server.app.secupass.addAccessDescriptor({ recipientUserId: aliceRow.id, recipientKeyId: signing.keyId, resourceKind: 'delivery', resourceId: 'd', fileId: 'f', wrappedKey: wrapped })).rejects.toThrow(RecipientKeyNotLiveError);
  });

  it('resets: state reset, keys revoked, copies invalidated, audit entry, mail in her language', async () => {
    const response = await call(server, admin, 'POST', `${API}/admin/users/${aliceUuid}/secupass/reset`);
    expect(response.status, await response.clone().text()).toBe(204);

    const own = await json<OwnSecuPassResponse>(await call(server, alice, 'GET', OWN));
    expect(own).toMatchObject({ state: 'reset', version: null, blob: null, publicKeys: [] });

    // No live key any more; only the old signing key, marked retired (verifying her old signatures), never the encryption key.
    const afterReset = (await json<UserPublicKeysResponse>(await call(server, bob, 'GET', `${API}/users/${aliceUuid}/public-keys`))).keys;
    expect(afterReset.map((k) => [k.keyId, k.usage, k.retired])).toEqual(keysBefore.filter((k) => k.usage === 'signing').map((k) => [k.keyId, 'signing', true]));
    expect(afterReset[0]!.retiredAt).toBeGreaterThan(0);
    const aliceRow = (await server.app.users.findByUuid(aliceUuid))!;
    const rows = await server.app.db.selectFrom('public_keys').selectAll().where('user_id', '=', aliceRow.id).execute();
    expect(rows.length).toBe(2);
    expect(rows.every((r) => r.revoked_at !== null)).toBe(true);

    await expectBackendError(await call(server, alice, 'GET', `${API}/user/access-descriptors/${descriptorId}`), 404, 'AccessDescriptorNotFoundException');
    // No new copy can be written to a revoked key.
    const revokedEncryption = keysBefore.find((k) => k.usage === 'encryption')!;
    const stale = (await server.app.db.selectFrom('access_descriptors').select('wrapped_key').where('id', '=', descriptorId).executeTakeFirstOrThrow()).wrapped_key;
    await expect(
      server.app.secupass.addAccessDescriptor({ recipientUserId: aliceRow.id, recipientKeyId: revokedEncryption.keyId, resourceKind: 'delivery', resourceId: 'd', fileId: 'f', wrappedKey: JSON.parse(stale) as WrappedFileKeyWire }),
    ).rejects.toThrow(RecipientKeyNotLiveError);

    const log = await json<AuditLogResponse>(await call(server, admin, 'GET', `${API}/admin/audit-log`));
    expect(log.entries[0]).toMatchObject({
      action: 'secupass.reset',
      actor: { uuid: adminUuid, email: server.admin.email },
      subject: { uuid: aliceUuid, email: 'alice@example.test' },
      details: { revokedKeys: 2, invalidatedAccessDescriptors: 1, previousState: 'active' },
    });
    const filtered = await json<AuditLogResponse>(await call(server, admin, 'GET', `${API}/admin/audit-log?action=secupass.reset&pageSize=1`));
    expect(filtered).toMatchObject({ total: 1, page: 1, pageSize: 1 });

    const mail = await waitForMailboxMail(server.mailboxDir, (m) => addressedTo('alice@example.test')(m) && /SecuPass/.test(m.subject));
    expect(mail.subject).toBe('Kuvert: Ihre SecuPass wurde zurückgesetzt');
    expect(mail.text).toContain(server.url);
    expect(mail.html).toMatch(/^<!doctype html><html lang="de">/);
  });

  it('after a reset a change is refused and a new SecuPass can be set', async () => {
    const { blob, keys } = await setupSecuPass({ userId: aliceUuid, passphrase: MARKER_PASSPHRASE });
    await expectBackendError(await call(server, alice, 'PUT', OWN, bodyOf(blob)), 404, 'AccessDescriptorNotFoundException');
    const created = await json<OwnSecuPassResponse>(await call(server, alice, 'POST', OWN, bodyOf(blob)), 201);
    expect(created).toMatchObject({ state: 'active', version: 3, blob });
    const published = (await json<UserPublicKeysResponse>(await call(server, bob, 'GET', `${API}/users/${aliceUuid}/public-keys`))).keys;
    const live = published.filter((k) => k.retired !== true);
    expect(new Set(live.map((k) => k.keyId))).toEqual(new Set(keys.map((k) => k.keyId)));
    expect(live.some((k) => keysBefore.some((old) => old.keyId === k.keyId))).toBe(false);
    // Live keys come first; the old signing key follows, retired.
    expect(published.slice(live.length).map((k) => [k.keyId, k.retired])).toEqual(keysBefore.filter((k) => k.usage === 'signing').map((k) => [k.keyId, true]));
    // The old copy stays gone: a sender has to release again.
    await expectBackendError(await call(server, alice, 'GET', `${API}/user/access-descriptors/${descriptorId}`), 404, 'AccessDescriptorNotFoundException');
  });

  it('a user administrator may reset a plain user', async () => {
    const bobUuid = await uuidOf(bob);
    expect((await call(server, userAdmin, 'POST', `${API}/admin/users/${bobUuid}/secupass/reset`)).status).toBe(204);
    expect((await json<OwnSecuPassResponse>(await call(server, bob, 'GET', OWN))).state).toBe('reset');
  });
});

describe('concurrency', () => {
  it('two first sets at once: one wins (201), the other is 409, and the stored keys are the winner\'s', async () => {
    const uaUuid = await uuidOf(userAdmin);
    const [a, b] = await Promise.all([
      setupSecuPass({ userId: uaUuid, passphrase: MARKER_PASSPHRASE }),
      setupSecuPass({ userId: uaUuid, passphrase: MARKER_PASSPHRASE_2 }),
    ]);
    const responses = await Promise.all([call(server, userAdmin, 'POST', OWN, bodyOf(a.blob)), call(server, userAdmin, 'POST', OWN, bodyOf(b.blob))]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = responses[0]!.status === 201 ? a.blob : b.blob;
    const own = await json<OwnSecuPassResponse>(await call(server, userAdmin, 'GET', OWN));
    expect(own.blob).toEqual(winner);
    expect(new Set(own.publicKeys.map((k) => k.keyId))).toEqual(new Set(winner.keys.map((k) => k.keyId)));
  });
});

describe('admin user list', () => {
  it('lists users by email with their SecuPass state, searches and pages', async () => {
    const all = await json<ListUsersResponse>(await call(server, admin, 'GET', `${API}/admin/users`));
    expect(all).toMatchObject({ total: 4, page: 1, pageSize: 50 });
    expect(all.users.map((u) => u.email)).toEqual([...all.users.map((u) => u.email)].sort());
    const byEmail = new Map(all.users.map((u) => [u.email, u]));
    expect(byEmail.get('alice@example.test')).toMatchObject({ secupassState: 'active', disabled: false, firstName: 'Alice' });
    expect(byEmail.get('bob@example.test')?.secupassState).toBe('reset');
    expect(byEmail.get('ua@example.test')?.secupassState).toBe('active');
    expect(byEmail.get(server.admin.email)?.secupassState).toBe('none');

    const search = await json<ListUsersResponse>(await call(server, userAdmin, 'GET', `${API}/admin/users?q=LIDDELL`));
    expect(search.users.map((u) => u.email)).toEqual(['alice@example.test']);
    expect((await json<ListUsersResponse>(await call(server, admin, 'GET', `${API}/admin/users?q=%25`))).total).toBe(0);
    expect((await json<ListUsersResponse>(await call(server, admin, 'GET', `${API}/admin/users?q=_`))).total).toBe(0);

    const page2 = await json<ListUsersResponse>(await call(server, admin, 'GET', `${API}/admin/users?page=2&pageSize=3`));
    expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page2.users.map((u) => u.email)).toEqual(all.users.slice(3).map((u) => u.email));
  });
});

describe('typed fetchers (shared/api/endpoints/secupass.ts) against the server', () => {
  /** The product client with the session cookie added (Node's fetch keeps no cookies). */
  const clientFor = (session: Session | null): ApiClient => {
    const client = createApiClient({
      backendUrl: server.url,
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        if (session) headers.set('cookie', session.cookie);
        return fetch(input, { ...init, headers });
      },
    });
    if (session) client.setAntiCsrfToken(session.csrf);
    return client;
  };

  // The account proves its address first (two sign-ins): more than the default 30 s on a busy machine.
  it('walks set → change → public keys → reset → list → audit', { timeout: 90_000 }, async () => {
    await createUserAsAdmin(server, admin, { email: 'carol@example.test' });
    const carolSession = await signIn(server, 'carol@example.test', 'Good-Passw0rd');
    const carol = clientFor(carolSession);
    const carolUuid = await uuidOf(carolSession);
    expect((await getSecuPassPolicy(clientFor(null))).minLength).toBe(12);
    expect((await getOwnSecuPass(carol)).state).toBe('none');
    const { blob } = await setupSecuPass({ userId: carolUuid, passphrase: MARKER_PASSPHRASE });
    expect((await postSecuPass(carol, bodyOf(blob))).state).toBe('active');
    await expect(postSecuPass(carol, bodyOf(blob))).rejects.toMatchObject({ status: 409, errorClass: 'ConflictException' });
    const changed = await changeSecuPass({ userId: carolUuid, blob, currentPassphrase: MARKER_PASSPHRASE, newPassphrase: MARKER_PASSPHRASE_2 });
    expect((await putSecuPass(carol, bodyOf(changed.blob))).blob).toEqual(changed.blob);
    // Bob is a stranger to carol until she writes to him (key look-ups are for people sharing a delivery).
    await expect(getUserPublicKeys(clientFor(bob), carolUuid)).rejects.toMatchObject({ status: 404, errorClass: 'NotFoundException' });
    await json(await call(server, carolSession, 'POST', `${API}${DELIVERY_PATHS.create}`, { recipients: ['bob@example.test'], subject: 'Hi', body: 'Hello Bob.', securityLevel: 10 }), 201);
    expect((await getUserPublicKeys(carol, await uuidOf(bob))).email).toBe('bob@example.test');
    expect((await getUserPublicKeys(carol, carolUuid)).keys).toHaveLength(2);
    await expect(getOwnAccessDescriptor(carol, 'nope')).rejects.toMatchObject({ status: 404, errorClass: 'AccessDescriptorNotFoundException' });

    const adminClient = clientFor(admin);
    await postAdminSecuPassReset(adminClient, carolUuid);
    expect((await getOwnSecuPass(carol)).state).toBe('reset');
    const listed = await getAdminUsers(adminClient, { q: 'carol', page: 1, pageSize: 10 });
    expect(listed.users.map((u) => [u.email, u.secupassState])).toEqual([['carol@example.test', 'reset']]);
    const log = await getAdminAuditLog(adminClient, { action: 'secupass.reset', pageSize: 1 });
    expect(log.entries[0]?.subject?.uuid).toBe(carolUuid);
  });
});

describe('no passphrase at rest', () => {
  it('neither the database nor the data folder contains a passphrase after set and change', async () => {
    const needles = [MARKER_PASSPHRASE, MARKER_PASSPHRASE_2].flatMap((p) => [Buffer.from(p, 'utf8'), Buffer.from(p, 'utf16le')]);
    // Every row of every table, whichever database.
    const tables = ['users', 'sessions', 'settings', 'secupass', 'public_keys', 'access_descriptors', 'audit_log'] as const;
    for (const table of tables) {
      const rows = await server.app.db.selectFrom(table).selectAll().execute();
      const dump = Buffer.from(JSON.stringify(rows), 'utf8');
      for (const needle of needles) expect(dump.includes(needle), table).toBe(false);
    }
    // Every byte under the data folder (the SQLite file and its WAL, mails, anything else).
    const files = await filesUnder(server.dataDir);
    if (server.app.databaseKind === 'sqlite') expect(files.some((f) => f.endsWith('kuvert.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = await readFile(file);
      for (const needle of needles) expect(bytes.includes(needle), file).toBe(false);
    }
    // Sanity: the same scan finds what is stored (the active blob's salt), so a miss above means something.
    const stored = await server.app.db.selectFrom('secupass').select('blob').where('state', '=', 'active').executeTakeFirstOrThrow();
    const salt = Buffer.from((JSON.parse(stored.blob!) as SecuPassBlobV3).kdf.salt, 'utf8');
    if (server.app.databaseKind === 'sqlite') {
      const found = await Promise.all(files.map(async (file) => (await readFile(file)).includes(salt)));
      expect(found.some(Boolean)).toBe(true);
    }
  });
});
