// Levels 3/4, bottom of the E2E stage: manifest and access descriptors (wrapped file keys).
import { E2E_MANIFEST_FILE_ID, type E2eResponse, type NewDescriptor, type OwnFileKey } from '@shared/contract/deliveries';
import type { FastifyInstance } from 'fastify';
import { badRequest, HttpError, notFound } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import { RecipientKeyNotLiveError, toWireDescriptor } from '../secupass/secupass-repository';
import type { UserRow } from '../users/users-repository';
import { fileOf, ownDraft, timeStateOf, usersByEmail, type DeliveryRow, type RecipientRow } from './records';
import { isE2eLevel } from './rules';
import { resolveViewer } from './viewer';
import { encryptsMessage } from '@shared/contract/security-levels';
import { spendLookupBudgetOrRefuse } from '../security/recipient-lookups';

/**
 * Levels 3/4 on the server (DESIGN §3). The server holds ciphertext, the encrypted signed
 * manifest and the wrapped file keys (access descriptors), never a key or a plaintext byte:
 *
 * - every file is E2E stream ciphertext (announced with `encryption`, see parts.ts);
 * - the signed manifest (file names, sizes, header hashes, at level 4 subject and body) is itself
 *   stream-encrypted under a "manifest key" and stored in `deliveries.manifest` (base64url); its key
 *   travels like a file key, with file id `manifest`;
 * - descriptors: one per (reader key, file) and per reader for the manifest, for every recipient
 *   with an active SecuPass and for the sender (release needs the sender's own copy).
 *
 * Recipients without a key are "release needed": invited at send, released later by the sender.
 */

export const DESCRIPTOR_KIND = 'delivery';

const accessDescriptorNotFound = (reason: 'passphraseNeeded' | 'releasePending' | 'noAccess') =>
  new HttpError(404, 'AccessDescriptorNotFoundException', 'No access to the keys of this delivery', { reason });

export function requireE2e(delivery: DeliveryRow): void {
  if (!isE2eLevel(delivery.security_level)) throw badRequest('Only level 3 and 4 deliveries are end-to-end encrypted', { reason: 'notEncrypted' });
}

/** The file ids every reader needs a copy of: each file and the manifest. */
export async function requiredFileIds(app: FastifyInstance, delivery: DeliveryRow): Promise<string[]> {
  const files = await app.db.selectFrom('delivery_files').select('uuid').where('delivery_id', '=', delivery.id).execute();
  return [...files.map((f) => f.uuid), E2E_MANIFEST_FILE_ID];
}

/** Live descriptors of a delivery: user id → file ids covered. */
async function coverage(app: FastifyInstance, delivery: DeliveryRow): Promise<Map<number, Set<string>>> {
  const rows = await app.db
    .selectFrom('access_descriptors')
    .select(['recipient_user_id', 'file_id'])
    .where('resource_kind', '=', DESCRIPTOR_KIND)
    .where('resource_id', '=', delivery.uuid)
    .where('invalidated_at', 'is', null)
    .execute();
  const byUser = new Map<number, Set<string>>();
  for (const r of rows) {
    const set = byUser.get(r.recipient_user_id) ?? new Set<string>();
    set.add(r.file_id);
    byUser.set(r.recipient_user_id, set);
  }
  return byUser;
}

const covers = (have: Set<string> | undefined, needed: readonly string[]) => have !== undefined && needed.every((id) => have.has(id));

/**
 * Stores descriptors after checking each names a reader of this delivery (the sender or a
 * registered recipient), a file of it (or the manifest), and a live encryption key of that reader.
 * `onlyUserIds`: release — every descriptor must be for one of these users.
 */
export async function storeDescriptors(app: FastifyInstance, delivery: DeliveryRow, sender: UserRow, descriptors: readonly NewDescriptor[], onlyUserIds?: Set<number>): Promise<Set<number>> {
  const recipients = await app.db.selectFrom('delivery_recipients').select('email').where('delivery_id', '=', delivery.id).execute();
  const users = await usersByEmail(app.db, recipients.map((r) => r.email));
  const readers = new Map<string, UserRow>([...users.values()].map((u) => [u.uuid, u]));
  readers.set(sender.uuid, sender);
  const fileIds = new Set(await requiredFileIds(app, delivery));
  const resolved = descriptors.map((d) => {
    const reader = readers.get(d.recipientUserUuid);
    if (!reader || (onlyUserIds && !onlyUserIds.has(reader.id))) {
      throw badRequest('A descriptor names someone who is not a reader of this delivery', { field: 'descriptors', reason: 'unknownRecipient', recipientUserUuid: d.recipientUserUuid });
    }
    if (!fileIds.has(d.fileId)) throw badRequest('A descriptor names an unknown file', { field: 'descriptors', reason: 'unknownFile', fileId: d.fileId });
    if (d.wrappedKey.recipientKeyId !== d.recipientKeyId) {
      throw badRequest('The wrapped key is for another key', { field: 'descriptors', reason: 'keyIdMismatch', recipientKeyId: d.recipientKeyId });
    }
    return { ...d, reader };
  });
  const seen = new Set<string>();
  for (const d of resolved) {
    const k = `${d.reader.id}|${d.recipientKeyId}|${d.fileId}`;
    if (seen.has(k)) throw badRequest('Duplicate descriptor', { field: 'descriptors', reason: 'duplicateDescriptor', fileId: d.fileId });
    seen.add(k);
  }
  for (const d of resolved) {
    try {
      await app.secupass.addAccessDescriptor({
        recipientUserId: d.reader.id,
        recipientKeyId: d.recipientKeyId,
        resourceKind: DESCRIPTOR_KIND,
        resourceId: delivery.uuid,
        fileId: d.fileId,
        wrappedKey: d.wrappedKey,
      });
    } catch (error) {
      if (error instanceof RecipientKeyNotLiveError) {
        throw badRequest('The key is not a live encryption key of that reader', { field: 'descriptors', reason: 'recipientKeyNotLive', recipientUserUuid: d.recipientUserUuid });
      }
      throw error;
    }
  }
  return new Set(resolved.map((d) => d.reader.id));
}

/** PUT …/e2e (the draft's sender): the encrypted manifest and the descriptors; replaces earlier ones. */
export async function putE2e({ app, user: sender }: RequestContext, deliveryUuid: string, body: { manifest: string; descriptors: NewDescriptor[] }): Promise<void> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  requireE2e(delivery);
  // Whether a descriptor's user id is one of the draft's recipients tells an id's address: budgeted like recipient-keys (asked there = free).
  await spendLookupBudgetOrRefuse(app.db, sender.id, (await app.db.selectFrom('delivery_recipients').select('email').where('delivery_id', '=', delivery.id).execute()).map((r) => r.email));
  // Drafts are read by nobody, so replacing in two steps leaves nothing half-visible.
  await dropDescriptors(app, delivery.uuid);
  // Copies for a trust-network partner's recipients travel with the transfer (they have no account here).
  await storeDescriptors(app, delivery, sender, await app.deliveryHooks.partners.keepDescriptors(delivery, body.descriptors));
  await app.db.updateTable('deliveries').set({ manifest: body.manifest }).where('id', '=', delivery.id).where('status', '=', 'draft').execute();
}

/**
 * PUT …/files/{fileId}/own-key (the draft's sender): the file key wrapped to the sender's own live
 * encryption key, stored as the sender's descriptor of that file (replacing an earlier one), so a
 * resumed upload continues with the same key instead of re-encrypting. The server cannot unwrap it.
 */
export async function putOwnKey({ app, user: sender }: RequestContext, deliveryUuid: string, fileId: string, body: OwnFileKey): Promise<void> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  requireE2e(delivery);
  const file = await fileOf(app.db, delivery, fileId);
  if (body.wrappedKey.recipientKeyId !== body.recipientKeyId) {
    throw badRequest('The wrapped key is for another key', { field: 'wrappedKey', reason: 'keyIdMismatch', recipientKeyId: body.recipientKeyId });
  }
  await app.db
    .deleteFrom('access_descriptors')
    .where('resource_kind', '=', DESCRIPTOR_KIND)
    .where('resource_id', '=', delivery.uuid)
    .where('file_id', '=', file.uuid)
    .where('recipient_user_id', '=', sender.id)
    .execute();
  try {
    await app.secupass.addAccessDescriptor({
      recipientUserId: sender.id,
      recipientKeyId: body.recipientKeyId,
      resourceKind: DESCRIPTOR_KIND,
      resourceId: delivery.uuid,
      fileId: file.uuid,
      wrappedKey: body.wrappedKey,
    });
  } catch (error) {
    if (error instanceof RecipientKeyNotLiveError) throw badRequest('The key is not a live encryption key of the sender', { field: 'recipientKeyId', reason: 'recipientKeyNotLive' });
    throw error;
  }
}

/** The sender's newest live copy of one file's key (the parts listing hands it back for a resume). */
export async function ownKeyOf(app: FastifyInstance, sender: UserRow, deliveryUuid: string, fileUuid: string): Promise<OwnFileKey | undefined> {
  const row = await app.db
    .selectFrom('access_descriptors')
    .selectAll()
    .where('resource_kind', '=', DESCRIPTOR_KIND)
    .where('resource_id', '=', deliveryUuid)
    .where('file_id', '=', fileUuid)
    .where('recipient_user_id', '=', sender.id)
    .where('invalidated_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!row) return undefined;
  const wire = toWireDescriptor(row);
  return { recipientKeyId: wire.recipientKeyId, wrappedKey: wire.wrappedKey };
}

/** Removes the descriptors of a delivery (or of one of its files). */
export async function dropDescriptors(app: FastifyInstance, deliveryUuid: string, fileId?: string): Promise<void> {
  let query = app.db.deleteFrom('access_descriptors').where('resource_kind', '=', DESCRIPTOR_KIND).where('resource_id', '=', deliveryUuid);
  if (fileId !== undefined) query = query.where('file_id', '=', fileId);
  await query.execute();
}

/** GET …/e2e (sender or recipient): the manifest and the caller's own live descriptors. */
export async function getE2e({ app, user }: RequestContext, deliveryUuid: string): Promise<E2eResponse> {
  const viewer = await resolveViewer(app.db, deliveryUuid, { user });
  const { delivery } = viewer;
  if (!isE2eLevel(delivery.security_level) || delivery.manifest === null) throw notFound('Delivery not found');
  if (viewer.kind !== 'sender' && (timeStateOf(delivery) === 'expired' || delivery.purged_at !== null)) throw notFound('The delivery has expired');
  const rows = await app.db
    .selectFrom('access_descriptors')
    .selectAll()
    .where('resource_kind', '=', DESCRIPTOR_KIND)
    .where('resource_id', '=', delivery.uuid)
    .where('recipient_user_id', '=', user.id)
    .where('invalidated_at', 'is', null)
    .orderBy('created_at')
    .execute();
  if (rows.length === 0) {
    if (viewer.kind !== 'recipient') throw accessDescriptorNotFound('noAccess');
    throw accessDescriptorNotFound(await e2eAccessOf(app, delivery, viewer.recipient) === 'releasePending' ? 'releasePending' : 'passphraseNeeded');
  }
  const sender = await app.users.findById(delivery.sender_id);
  if (!sender) throw notFound('Delivery not found');
  // Through a trust connection: signed by the sender's user on the partner server (its keys: GET /users/{id}/public-keys).
  const partnerSender = await app.deliveryHooks.partners.sender(delivery.id);
  if (viewer.kind === 'recipient' && encryptsMessage(delivery.security_level)) {
    // The server cannot see the decryption itself; handing out the keys is the closest it gets.
    await app.db.updateTable('delivery_recipients').set({ decrypted_at: Date.now() }).where('id', '=', viewer.recipient.id).where('decrypted_at', 'is', null).execute();
  }
  return { senderUserUuid: partnerSender?.userUuid ?? sender.uuid, manifest: delivery.manifest, descriptors: rows.map(toWireDescriptor) };
}

/** A recipient's own access (SPEC §2 inbox alerts "create a passphrase" / "waiting for release"). */
export async function e2eAccessOf(app: FastifyInstance, delivery: DeliveryRow, recipient: RecipientRow): Promise<'ok' | 'passphraseNeeded' | 'releasePending'> {
  const user = (await usersByEmail(app.db, [recipient.email])).get(recipient.email);
  if (!user) return 'passphraseNeeded';
  const needed = await requiredFileIds(app, delivery);
  if (covers((await coverage(app, delivery)).get(user.id), needed)) return 'ok';
  const state = (await app.secupass.statesOf([user.id])).get(user.id);
  return state === 'active' ? 'releasePending' : 'passphraseNeeded';
}

/** Recipient rows (ids) that have no complete set of live copies: release needed. */
export async function releasePendingOf(app: FastifyInstance, delivery: DeliveryRow, recipients: readonly RecipientRow[]): Promise<Set<number>> {
  const needed = await requiredFileIds(app, delivery);
  const have = await coverage(app, delivery);
  const users = await usersByEmail(app.db, recipients.map((r) => r.email));
  return new Set(recipients.filter((r) => !covers(have.get(users.get(r.email)?.id ?? -1), needed)).map((r) => r.id));
}

/**
 * Send-time rules of levels 3/4: a manifest, the sender's own copies, and complete copies for
 * every recipient who has an active SecuPass (leaving one out would be a silent downgrade to
 * "release needed"). Returns the recipients (row ids) who wait for a release.
 */
export async function e2eSendCheck(app: FastifyInstance, sender: UserRow, delivery: DeliveryRow, recipients: readonly RecipientRow[]): Promise<Set<number>> {
  if (delivery.manifest === null) throw badRequest('The encrypted manifest is missing', { reason: 'manifestMissing' });
  const needed = await requiredFileIds(app, delivery);
  const have = await coverage(app, delivery);
  if (!covers(have.get(sender.id), needed)) throw badRequest("The sender's own key copies are missing", { reason: 'accessDescriptorsMissing', recipients: [sender.email] });
  const users = await usersByEmail(app.db, recipients.map((r) => r.email));
  const states = await app.secupass.statesOf([...users.values()].map((u) => u.id));
  const missing: string[] = [];
  const pending = new Set<number>();
  for (const r of recipients) {
    const user = users.get(r.email);
    if (user && covers(have.get(user.id), needed)) continue;
    if (user && states.get(user.id) === 'active') missing.push(r.email);
    else pending.add(r.id);
  }
  if (missing.length > 0) throw badRequest('Key copies for some recipients are missing', { reason: 'accessDescriptorsMissing', recipients: missing });
  return pending;
}
