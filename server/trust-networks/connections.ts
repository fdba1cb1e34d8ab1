import { randomUUID } from 'node:crypto';
import type { TrustConnection, TrustConnectionState, TrustTestStep } from '@shared/contract/trust-networks';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { badRequest, notFound } from '../core/http-error';
import { keyFingerprint, generateTrustKeyPair } from './signatures';
import type { TrustConnectionsTable } from './tables';
import './tables';

export type TrustConnectionRow = Selectable<TrustConnectionsTable>;

/** What the create and edit forms send, validated by the contract (shared/contract/trust-networks.ts). */
export interface ConnectionInput {
  partnerUrl: string;
  partnerDomains: string[];
  partnerPublicKey?: string | undefined;
}

export const toWire = (row: TrustConnectionRow): TrustConnection => ({
  connectionId: row.uuid,
  partnerUrl: row.partner_url,
  partnerDomains: JSON.parse(row.partner_domains) as string[],
  ownPublicKey: row.own_public_key,
  ownKeyFingerprint: row.own_key_fingerprint,
  partnerPublicKey: row.partner_public_key,
  partnerKeyFingerprint: row.partner_key_fingerprint,
  status: row.status as TrustConnectionState,
  lastTest:
    row.last_tested_at === null
      ? null
      : { ok: row.last_test_step === null, step: row.last_test_step as TrustTestStep | null, reason: row.last_test_reason, at: Number(row.last_tested_at) },
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

export const liveConnections = (app: FastifyInstance) => app.db.selectFrom('trust_connections').selectAll().where('deleted_at', 'is', null);

export async function listConnections(app: FastifyInstance): Promise<TrustConnection[]> {
  const rows = await liveConnections(app).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toWire);
}

export async function connectionByUuid(app: FastifyInstance, uuid: string): Promise<TrustConnectionRow> {
  const row = await liveConnections(app).where('uuid', '=', uuid).executeTakeFirst();
  if (!row) throw notFound('No such trust connection');
  return row;
}

/** The partner key with its fingerprint; one live connection per partner key (a call must name exactly one). */
async function partnerKeyOf(app: FastifyInstance, input: ConnectionInput, exceptId?: number) {
  const key = input.partnerPublicKey?.trim() ?? '';
  if (key === '') return { partner_public_key: null, partner_key_fingerprint: null };
  const fingerprint = keyFingerprint(key);
  let clash = liveConnections(app).where('partner_key_fingerprint', '=', fingerprint);
  if (exceptId !== undefined) clash = clash.where('id', '!=', exceptId);
  if (await clash.executeTakeFirst()) throw badRequest('Another connection already uses this partner key', { problems: [{ field: 'partnerPublicKey', reason: 'duplicateKey' }] });
  if (await app.db.selectFrom('trust_connections').select('id').where('own_key_fingerprint', '=', fingerprint).executeTakeFirst()) {
    throw badRequest("This is one of this server's own keys, not the partner's", { problems: [{ field: 'partnerPublicKey', reason: 'ownKey' }] });
  }
  return { partner_public_key: key, partner_key_fingerprint: fingerprint };
}

/** A new connection with a fresh Ed25519 key pair; the private key is stored sealed with the server's secret key. */
export async function createConnection(app: FastifyInstance, actorUserId: number, input: ConnectionInput): Promise<TrustConnection> {
  const partner = await partnerKeyOf(app, input);
  const pair = generateTrustKeyPair();
  const now = Date.now();
  const uuid = randomUUID();
  await app.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('trust_connections')
      .values({
        uuid,
        partner_url: input.partnerUrl,
        partner_domains: JSON.stringify(input.partnerDomains),
        own_public_key: pair.publicKey,
        own_key_fingerprint: pair.fingerprint,
        own_private_key: null,
        ...partner,
        status: partner.partner_public_key === null ? 'pending' : 'testable',
        last_test_step: null,
        last_test_reason: null,
        last_tested_at: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Sealed bound to the row's id: a sealed key copied to another row does not open.
    await trx.updateTable('trust_connections').set({ own_private_key: app.secretBox.seal(id, 'trust_connections.private_key', pair.privateKey) }).where('id', '=', id).execute();
    await app.auditLog.record({ actorUserId, action: 'trustNetwork.created', subjectUserId: null, details: { connectionId: uuid, partnerUrl: input.partnerUrl, ownKeyFingerprint: pair.fingerprint } }, trx);
  });
  return toWire(await connectionByUuid(app, uuid));
}

/** Partner URL, domains and key; a changed URL or key needs a new test (`testable`, or `pending` without a key). */
export async function updateConnection(app: FastifyInstance, actorUserId: number, uuid: string, input: ConnectionInput): Promise<TrustConnection> {
  const row = await connectionByUuid(app, uuid);
  const partner = await partnerKeyOf(app, input, row.id);
  const changed = partner.partner_key_fingerprint !== row.partner_key_fingerprint || input.partnerUrl !== row.partner_url;
  const status = partner.partner_public_key === null ? 'pending' : changed ? 'testable' : row.status;
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('trust_connections')
      .set({
        partner_url: input.partnerUrl,
        partner_domains: JSON.stringify(input.partnerDomains),
        ...partner,
        status,
        ...(changed ? { last_test_step: null, last_test_reason: null, last_tested_at: null } : {}),
        updated_at: Date.now(),
      })
      .where('id', '=', row.id)
      .execute();
    await app.auditLog.record({ actorUserId, action: 'trustNetwork.updated', subjectUserId: null, details: { connectionId: uuid, partnerUrl: input.partnerUrl, partnerKeyFingerprint: partner.partner_key_fingerprint } }, trx);
  });
  return toWire(await connectionByUuid(app, uuid));
}

/** Deleted for good from the administrator's view; the row stays so a call signed by its keys is refused as revoked. */
export async function deleteConnection(app: FastifyInstance, actorUserId: number, uuid: string): Promise<void> {
  const row = await connectionByUuid(app, uuid);
  await app.db.transaction().execute(async (trx) => {
    // The private key goes: nothing can be signed with this connection any more.
    await trx.updateTable('trust_connections').set({ deleted_at: Date.now(), own_private_key: null }).where('id', '=', row.id).execute();
    await app.auditLog.record({ actorUserId, action: 'trustNetwork.deleted', subjectUserId: null, details: { connectionId: uuid, partnerUrl: row.partner_url } }, trx);
  });
}

/** The private key of a live connection, opened with the server's secret key. */
export function privateKeyOf(app: FastifyInstance, row: TrustConnectionRow): string {
  if (row.own_private_key === null) throw new Error('trust connection without a private key');
  return app.secretBox.open(row.id, 'trust_connections.private_key', row.own_private_key);
}
