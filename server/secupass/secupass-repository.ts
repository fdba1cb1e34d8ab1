import { randomUUID } from 'node:crypto';
import type {
  AccessDescriptor,
  ContactPinsResponse,
  SealedContactPinsWire,
  OwnSecuPassResponse,
  PublicKey,
  SecuPassBlobWire,
  SecuPassState,
  SetSecuPassBody,
  UserPublicKeysResponse,
  WrappedFileKeyWire,
} from '@shared/contract/secupass';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AuditLog } from '../audit/audit-log';
import { databaseKindOf } from '../db/database';
import type { AccessDescriptorsTable, Database, PublicKeysTable } from '../db/schema';
import { fingerprintOf, sameKeySet } from './blob-checks';

/**
 * SecuPass storage (DESIGN §3): one `secupass` row per user (no row = `none`), the public
 * keys, and the wrapped file-key copies (access descriptors). Only wrapped secrets and
 * public keys are ever stored; the shapes are checked by the routes (blob-checks.ts).
 */

export type SetOutcome = 'ok' | 'active';
export type ReplaceOutcome = 'ok' | 'notActive' | 'keysDiffer';

export interface ResetOutcome {
  revokedKeys: number;
  invalidatedAccessDescriptors: number;
  previousState: SecuPassState;
}

export interface NewAccessDescriptor {
  recipientUserId: number;
  recipientKeyId: string;
  resourceKind: AccessDescriptor['resourceKind'];
  resourceId: string;
  fileId: string;
  wrappedKey: WrappedFileKeyWire;
}

/** addAccessDescriptor was given a recipient key that is unknown, not an encryption key, or revoked. */
export class RecipientKeyNotLiveError extends Error {
  override readonly name = 'RecipientKeyNotLiveError';
}

export interface SecuPassRepository {
  getOwn(userId: number): Promise<OwnSecuPassResponse>;
  /** State of each given user (missing = none). */
  statesOf(userIds: readonly number[]): Promise<Map<number, SecuPassState>>;
  /** First set, or a new one after a reset: refused ('active') while one is active. */
  set(userId: number, body: SetSecuPassBody): Promise<SetOutcome>;
  /** New blob for the same key pairs (passphrase change, upgrade). */
  replace(userId: number, body: SetSecuPassBody): Promise<ReplaceOutcome>;
  /** The user's live (not revoked) public keys with display fingerprints (what file keys are wrapped to). */
  publicKeysOf(userId: number): Promise<UserPublicKeysResponse['keys']>;
  /**
   * The live keys, then the revoked SIGNING keys marked `retired` (newest first): verifying
   * signatures made before a reset. Revoked encryption keys are never handed out.
   */
  publicKeysWithRetiredOf(userId: number): Promise<UserPublicKeysResponse['keys']>;
  /**
   * Administrator reset, one transaction: state `reset` without blob, keys revoked, every
   * access descriptor of the user invalidated, audit entry written.
   */
  reset(input: { actorUserId: number; subjectUserId: number; audit: AuditLog }): Promise<ResetOutcome>;
  /**
   * For deliveries and data rooms (and tests): stores a wrapped copy; returns its id. Throws
   * RecipientKeyNotLiveError unless the recipient key is the user's live encryption key
   * (checked under a row lock on PostgreSQL, so a concurrent reset cannot be missed).
   */
  addAccessDescriptor(input: NewAccessDescriptor): Promise<string>;
  /** The recipient's live copy, undefined when missing, invalidated or someone else's. */
  findAccessDescriptor(id: string, recipientUserId: number): Promise<AccessDescriptor | undefined>;
  /** The user's sealed contact pin list (counter 0, null when none). */
  contactPinsOf(userId: number): Promise<ContactPinsResponse>;
  /** Stores the list when its counter is exactly the stored one + 1; otherwise 'conflict' (nothing changes). */
  putContactPins(userId: number, envelope: SealedContactPinsWire): Promise<'ok' | 'conflict'>;
}

const toWireKey = (row: Selectable<PublicKeysTable>): PublicKey => ({ keyId: row.key_id, usage: row.usage as PublicKey['usage'], publicKey: row.spki });

export function toWireDescriptor(row: Selectable<AccessDescriptorsTable>): AccessDescriptor {
  return {
    id: row.id,
    recipientKeyId: row.recipient_key_id,
    resourceKind: row.resource_kind as AccessDescriptor['resourceKind'],
    resourceId: row.resource_id,
    fileId: row.file_id,
    wrappedKey: JSON.parse(row.wrapped_key) as WrappedFileKeyWire,
    createdAt: Number(row.created_at),
  };
}

export function createSecuPassRepository(db: Kysely<Database>): SecuPassRepository {
  const postgres = databaseKindOf(db as unknown as Kysely<unknown>) === 'postgres';
  const liveKeys = (executor: Kysely<Database> | Transaction<Database>, userId: number) =>
    executor.selectFrom('public_keys').selectAll().where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('id').execute();

  async function insertKeys(trx: Transaction<Database>, userId: number, keys: readonly PublicKey[], now: number): Promise<void> {
    await trx
      .insertInto('public_keys')
      .values(keys.map((k) => ({ user_id: userId, key_id: k.keyId, usage: k.usage, spki: k.publicKey, fingerprint: fingerprintOf(k.publicKey), created_at: now })))
      .execute();
  }

  return {
    async getOwn(userId) {
      const row = await db.selectFrom('secupass').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (!row || row.state === 'none') return { state: 'none', version: null, blob: null, publicKeys: [], updatedAt: null };
      if (row.state !== 'active' || row.blob === null) {
        return { state: 'reset', version: null, blob: null, publicKeys: [], updatedAt: Number(row.updated_at) };
      }
      return {
        state: 'active',
        version: row.version,
        blob: JSON.parse(row.blob) as SecuPassBlobWire,
        publicKeys: (await liveKeys(db, userId)).map(toWireKey),
        updatedAt: Number(row.updated_at),
      };
    },

    async statesOf(userIds) {
      const states = new Map<number, SecuPassState>();
      if (userIds.length === 0) return states;
      const rows = await db.selectFrom('secupass').select(['user_id', 'state']).where('user_id', 'in', [...userIds]).execute();
      for (const row of rows) states.set(row.user_id, row.state as SecuPassState);
      return states;
    },

    async set(userId, body) {
      const now = Date.now();
      const values = { state: 'active', version: body.blob.version, blob: JSON.stringify(body.blob), updated_at: now };
      return db.transaction().execute(async (trx) => {
        // Conditional write: only a row that is not active may change; a missing row is inserted.
        const updated = await trx.updateTable('secupass').set(values).where('user_id', '=', userId).where('state', '!=', 'active').executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) {
          const inserted = await trx
            .insertInto('secupass')
            .values({ user_id: userId, ...values })
            .onConflict((oc) => oc.column('user_id').doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return 'active' as const;
        }
        // Keys of an earlier SecuPass are dead (a reset revoked them already; this is the safety net).
        await trx.updateTable('public_keys').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
        await insertKeys(trx, userId, body.publicKeys, now);
        return 'ok' as const;
      });
    },

    async replace(userId, body) {
      const now = Date.now();
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('secupass').select('state').where('user_id', '=', userId).executeTakeFirst();
        if (row?.state !== 'active') return 'notActive' as const;
        const stored = (await liveKeys(trx, userId)).map(toWireKey);
        if (!sameKeySet(stored, body.publicKeys)) return 'keysDiffer' as const;
        const updated = await trx
          .updateTable('secupass')
          .set({ version: body.blob.version, blob: JSON.stringify(body.blob), updated_at: now })
          .where('user_id', '=', userId)
          .where('state', '=', 'active')
          .executeTakeFirst();
        return Number(updated.numUpdatedRows) === 1 ? ('ok' as const) : ('notActive' as const);
      });
    },

    async publicKeysOf(userId) {
      return (await liveKeys(db, userId)).map((row) => ({ ...toWireKey(row), fingerprint: row.fingerprint }));
    },

    async publicKeysWithRetiredOf(userId) {
      const live = await this.publicKeysOf(userId);
      const retired = await db
        .selectFrom('public_keys')
        .selectAll()
        .where('user_id', '=', userId)
        .where('usage', '=', 'signing')
        .where('revoked_at', 'is not', null)
        .orderBy('revoked_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const liveIds = new Set(live.map((k) => k.keyId));
      return [
        ...live,
        ...retired.filter((row) => !liveIds.has(row.key_id)).map((row) => ({ ...toWireKey(row), fingerprint: row.fingerprint, retired: true, retiredAt: Number(row.revoked_at) })),
      ];
    },

    async reset({ actorUserId, subjectUserId, audit }) {
      const now = Date.now();
      return db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('secupass').select('state').where('user_id', '=', subjectUserId).executeTakeFirst();
        const values = { state: 'reset', version: null, blob: null, updated_at: now };
        await trx
          .insertInto('secupass')
          .values({ user_id: subjectUserId, ...values })
          .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
          .execute();
        const revoked = await trx
          .updateTable('public_keys')
          .set({ revoked_at: now })
          .where('user_id', '=', subjectUserId)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        const invalidated = await trx
          .updateTable('access_descriptors')
          .set({ invalidated_at: now })
          .where('recipient_user_id', '=', subjectUserId)
          .where('invalidated_at', 'is', null)
          .executeTakeFirst();
        // The pin list opens only with the old keys: dropped, the counter stays (it never goes back).
        await trx.updateTable('contact_pins').set({ envelope: null, updated_at: now }).where('user_id', '=', subjectUserId).execute();
        const outcome: ResetOutcome = {
          revokedKeys: Number(revoked.numUpdatedRows),
          invalidatedAccessDescriptors: Number(invalidated.numUpdatedRows),
          previousState: (before?.state ?? 'none') as SecuPassState,
        };
        await audit.record({ actorUserId, action: 'secupass.reset', subjectUserId, details: { ...outcome } }, trx);
        return outcome;
      });
    },

    async addAccessDescriptor(input) {
      const id = randomUUID();
      await db.transaction().execute(async (trx) => {
        let live = trx
          .selectFrom('public_keys')
          .select('id')
          .where('user_id', '=', input.recipientUserId)
          .where('key_id', '=', input.recipientKeyId)
          .where('usage', '=', 'encryption')
          .where('revoked_at', 'is', null);
        // SQLite serialises write transactions; PostgreSQL needs the lock (reset revokes the key row first).
        if (postgres) live = live.forUpdate();
        if (!(await live.executeTakeFirst())) throw new RecipientKeyNotLiveError('The recipient key is not a live encryption key of that user');
        await trx
          .insertInto('access_descriptors')
          .values({
            id,
            recipient_user_id: input.recipientUserId,
            recipient_key_id: input.recipientKeyId,
            resource_kind: input.resourceKind,
            resource_id: input.resourceId,
            file_id: input.fileId,
            wrapped_key: JSON.stringify(input.wrappedKey),
            created_at: Date.now(),
          })
          .execute();
      });
      return id;
    },

    async contactPinsOf(userId) {
      const row = await db.selectFrom('contact_pins').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (!row) return { counter: 0, envelope: null };
      return { counter: Number(row.counter), envelope: row.envelope === null ? null : (JSON.parse(row.envelope) as SealedContactPinsWire) };
    },

    async putContactPins(userId, envelope) {
      const now = Date.now();
      const values = { counter: envelope.counter, envelope: JSON.stringify(envelope), updated_at: now };
      return db.transaction().execute(async (trx) => {
        // Conditional write: only the successor of the stored counter; the first list is counter 1.
        const updated = await trx.updateTable('contact_pins').set(values).where('user_id', '=', userId).where('counter', '=', envelope.counter - 1).executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 1) return 'ok' as const;
        if (envelope.counter !== 1) return 'conflict' as const;
        const inserted = await trx
          .insertInto('contact_pins')
          .values({ user_id: userId, ...values })
          .onConflict((oc) => oc.column('user_id').doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1 ? ('ok' as const) : ('conflict' as const);
      });
    },

    async findAccessDescriptor(id, recipientUserId) {
      const row = await db
        .selectFrom('access_descriptors')
        .selectAll()
        .where('id', '=', id)
        .where('recipient_user_id', '=', recipientUserId)
        .where('invalidated_at', 'is', null)
        .executeTakeFirst();
      return row ? toWireDescriptor(row) : undefined;
    },
  };
}
