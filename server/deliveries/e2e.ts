import { reduceLanguage, SECURITY_LEVELS } from '@shared/contract/constants';
import {
  DELIVERY_WEB_LINKS,
  E2E_MANIFEST_FILE_ID,
  type E2eResponse,
  type NewDescriptor,
  type OwnFileKey,
  type RecipientKeysResponse,
  type RecipientStatusResponse,
  type ReleaseList,
  type SecurityLevel,
} from '@shared/contract/deliveries';
import type { SecuPassState } from '@shared/contract/secupass';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { badRequest, conflict, HttpError, notFound, rateLimitExceeded } from '../core/http-error';
import { externalLinkFor } from '../external/external-service';
import { ENCRYPTED_SUBJECT_PLACEHOLDER } from '../mail/templates';
import { RecipientKeyNotLiveError, toWireDescriptor } from '../secupass/secupass-repository';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { spendLookupBudget } from '../security/recipient-lookups';
import type { UserRow } from '../users/users-repository';
import {
  activity,
  displayName,
  fileOf,
  findDelivery,
  ownDraft,
  resolveViewer,
  timeStateOf,
  usersByEmail,
  type DeliveryRow,
  type RecipientRow,
} from './deliveries-service';
import { isE2eLevel } from './rules';
import { assertMayAskAbout } from './senders';

/**
 * Levels 3/4 on the server (DESIGN §3). The server holds ciphertext, the encrypted signed
 * manifest and the wrapped file keys (access descriptors), never a key or a plaintext byte:
 *
 * - every file is E2E stream ciphertext (announced with `encryption`, see deliveries-service);
 * - the signed manifest (file names, sizes, header hashes, at level 4 subject and body) is itself
 *   stream-encrypted under a "manifest key" and stored in `deliveries.manifest` (base64url); its key
 *   travels like a file key, with file id `manifest`;
 * - descriptors: one per (reader key, file) and per reader for the manifest, for every recipient
 *   with an active SecuPass and for the sender (release needs the sender's own copy).
 *
 * Recipients without a key are "release needed": invited at send, released later by the sender.
 */

const DESCRIPTOR_KIND = 'delivery';

const accessDescriptorNotFound = (reason: 'passphraseNeeded' | 'releasePending' | 'noAccess') =>
  new HttpError(404, 'AccessDescriptorNotFoundException', 'No access to the keys of this delivery', { reason });

function requireE2e(delivery: DeliveryRow): void {
  if (!isE2eLevel(delivery.security_level)) throw badRequest('Only level 3 and 4 deliveries are end-to-end encrypted', { reason: 'notEncrypted' });
}

/** The file ids every reader needs a copy of: each file and the manifest. */
async function requiredFileIds(app: FastifyInstance, delivery: DeliveryRow): Promise<string[]> {
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

async function keysOf(app: FastifyInstance, user: UserRow | undefined, states: Map<number, SecuPassState>) {
  if (!user) return { userUuid: null, secupassState: 'none' as const, keys: [] };
  const state = states.get(user.id) ?? 'none';
  return { userUuid: user.uuid, secupassState: state, keys: state === 'active' ? await app.secupass.publicKeysOf(user.id) : [] };
}

/** Requests per sender in RECIPIENT_STATUS_LIMIT.windowMs: plenty for typing; the addresses are budgeted apart (RECIPIENT_LOOKUP_LIMIT). */
export const RECIPIENT_STATUS_LIMIT = { limit: 120, windowMs: 10 * 60_000 } as const;

/** The account's enumeration budget (distinct addresses per hour) → 429 when it is spent. */
async function spendLookups(app: FastifyInstance, user: UserRow, addresses: readonly string[]): Promise<void> {
  const outcome = await spendLookupBudget(app.db, user.id, addresses);
  if (!outcome.allowed) {
    const error = rateLimitExceeded(outcome.retryAfterMs);
    throw new HttpError(429, error.errorClass, 'Too many different addresses looked up, please try again later', { ...error.metadata, reason: 'lookupBudget' }, error.headers);
  }
}

/**
 * POST /deliveries/recipient-status: the chip warnings (SPEC §5). Only registered yes/no and an
 * active SecuPass yes/no per address, in the order asked. Limits against enumeration:
 * - reply-only accounts (delivery signup, ROLE_SENDER_EXTERNAL) may ask only about the people they
 *   may reply to (403 `RecipientNotAllowedException`, `reason: replyOnly`, as at send);
 * - requests per sender (RECIPIENT_STATUS_LIMIT) and distinct addresses per account and hour
 *   (RECIPIENT_LOOKUP_LIMIT, shared with recipient-keys) → 429.
 */
export async function recipientStatus(app: FastifyInstance, sender: UserRow, emails: readonly string[]): Promise<RecipientStatusResponse> {
  const allowed = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.recipientStatusUser, String(sender.id), RECIPIENT_STATUS_LIMIT);
  if (!allowed.allowed) throw rateLimitExceeded(allowed.retryAfterMs);
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  await assertMayAskAbout(app, sender, wanted);
  await spendLookups(app, sender, wanted);
  const users = await usersByEmail(app.db, wanted);
  const states = await app.secupass.statesOf([...users.values()].map((u) => u.id));
  return {
    recipients: emails.map((email) => {
      const user = users.get(email.trim().toLowerCase());
      return { email, registered: user !== undefined, hasPassphrase: user !== undefined && states.get(user.id) === 'active' };
    }),
  };
}

/**
 * GET /users/{userUuid}/public-keys: whom a caller may look up — themselves, and the people they
 * share a delivery with (the sender of a delivery they received, a recipient of one they sent or
 * drafted). A recipient needs the sender's signing key to check a level 3/4 manifest; nobody needs
 * the keys (and the address) of a stranger, so strangers are 404 like unknown ids. NB: data rooms
 * and trust networks add their members here when they arrive.
 */
export async function mayLookUpKeysOf(app: FastifyInstance, caller: UserRow, target: UserRow): Promise<boolean> {
  if (caller.id === target.id) return true;
  const received = await app.db
    .selectFrom('delivery_recipients as r')
    .innerJoin('deliveries as d', 'd.id', 'r.delivery_id')
    .select('d.id')
    .where('d.sender_id', '=', target.id)
    .where('d.status', '=', 'sent')
    .where('r.email', '=', caller.email.toLowerCase())
    .limit(1)
    .executeTakeFirst();
  if (received) return true;
  const sent = await app.db
    .selectFrom('deliveries as d')
    .innerJoin('delivery_recipients as r', 'r.delivery_id', 'd.id')
    .select('d.id')
    .where('d.sender_id', '=', caller.id)
    .where('d.status', 'in', ['draft', 'sent'])
    .where('r.email', '=', target.email.toLowerCase())
    .limit(1)
    .executeTakeFirst();
  return sent !== undefined;
}

/** GET …/recipient-keys (the draft's sender): what the client wraps file keys to. */
export async function recipientKeys(app: FastifyInstance, sender: UserRow, deliveryUuid: string): Promise<RecipientKeysResponse> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  requireE2e(delivery);
  const rows = await app.db.selectFrom('delivery_recipients').select(['email']).where('delivery_id', '=', delivery.id).orderBy('id').execute();
  // A draft's recipients are typed freely: its keys answer costs the same budget as the chips.
  await spendLookups(app, sender, rows.map((r) => r.email));
  const users = await usersByEmail(app.db, rows.map((r) => r.email));
  const states = await app.secupass.statesOf([sender.id, ...[...users.values()].map((u) => u.id)]);
  const recipients = [];
  for (const r of rows) recipients.push({ email: r.email, ...(await keysOf(app, users.get(r.email), states)) });
  return { sender: { userUuid: sender.uuid, email: sender.email, keys: await app.secupass.publicKeysOf(sender.id) }, recipients };
}

/**
 * Stores descriptors after checking each names a reader of this delivery (the sender or a
 * registered recipient), a file of it (or the manifest), and a live encryption key of that reader.
 * `onlyUserIds`: release — every descriptor must be for one of these users.
 */
async function storeDescriptors(app: FastifyInstance, delivery: DeliveryRow, sender: UserRow, descriptors: readonly NewDescriptor[], onlyUserIds?: Set<number>): Promise<Set<number>> {
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
export async function putE2e(app: FastifyInstance, sender: UserRow, deliveryUuid: string, body: { manifest: string; descriptors: NewDescriptor[] }): Promise<void> {
  const delivery = await ownDraft(app.db, sender, deliveryUuid);
  requireE2e(delivery);
  // Drafts are read by nobody, so replacing in two steps leaves nothing half-visible.
  await dropDescriptors(app, delivery.uuid);
  await storeDescriptors(app, delivery, sender, body.descriptors);
  await app.db.updateTable('deliveries').set({ manifest: body.manifest }).where('id', '=', delivery.id).where('status', '=', 'draft').execute();
}

/**
 * PUT …/files/{fileId}/own-key (the draft's sender): the file key wrapped to the sender's own live
 * encryption key, stored as the sender's descriptor of that file (replacing an earlier one), so a
 * resumed upload continues with the same key instead of re-encrypting. The server cannot unwrap it.
 */
export async function putOwnKey(app: FastifyInstance, sender: UserRow, deliveryUuid: string, fileId: string, body: OwnFileKey): Promise<void> {
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
export async function getE2e(app: FastifyInstance, user: UserRow, deliveryUuid: string): Promise<E2eResponse> {
  const viewer = await resolveViewer(app.db, user, deliveryUuid, undefined);
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
  if (viewer.kind === 'recipient' && delivery.security_level === SECURITY_LEVELS.LEVEL_4) {
    // The server cannot see the decryption itself; handing out the keys is the closest it gets.
    await app.db.updateTable('delivery_recipients').set({ decrypted_at: Date.now() }).where('id', '=', viewer.recipient.id).where('decrypted_at', 'is', null).execute();
  }
  return { senderUserUuid: sender.uuid, manifest: delivery.manifest, descriptors: rows.map(toWireDescriptor) };
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

/** Invitation mail to recipients without a key (levels 3/4). */
export async function e2eNotify(app: FastifyInstance, sender: UserRow, delivery: DeliveryRow, recipients: readonly RecipientRow[], log: FastifyBaseLogger): Promise<void> {
  if (recipients.length === 0) return;
  const users = await usersByEmail(app.db, recipients.map((r) => r.email));
  for (const r of recipients) {
    const user = users.get(r.email);
    const language = user ? reduceLanguage(user.language) : reduceLanguage(delivery.language);
    try {
      await app.mailer.send({
        to: r.email,
        template: 'e2eInvitation',
        language,
        data: {
          senderName: displayName(sender),
          senderEmail: sender.email,
          subject: delivery.subject || ENCRYPTED_SUBJECT_PLACEHOLDER[language],
          // Unregistered: the external path (email prompt → delivery signup), then passphrase and release.
          link: `${app.config.publicUrl}${(await externalLinkFor(app, delivery, r, { registered: user !== undefined, language, downloadToken: undefined })) ?? DELIVERY_WEB_LINKS.inbox(delivery.uuid)}`,
          registered: user !== undefined,
        },
      });
      await app.db.updateTable('delivery_recipients').set({ notified_at: Date.now() }).where('id', '=', r.id).execute();
      await activity(app.db, delivery.id, 'notified', { actor: r.email, recipientId: r.id, detail: 'releaseNeeded' });
    } catch (err) {
      log.error({ err, deliveryUuid: delivery.uuid }, 'invitation mail failed');
      await activity(app.db, delivery.id, 'notificationFailed', { actor: r.email, recipientId: r.id });
    }
  }
}

/** A sent E2E delivery of this sender that is still readable (release makes sense). */
async function releasableDelivery(app: FastifyInstance, sender: UserRow, deliveryUuid: string): Promise<DeliveryRow> {
  const delivery = await findDelivery(app.db, deliveryUuid);
  if (!delivery || delivery.sender_id !== sender.id || delivery.status !== 'sent') throw notFound('Delivery not found');
  requireE2e(delivery);
  if (timeStateOf(delivery) === 'expired' || delivery.purged_at !== null) throw conflict('The delivery has expired');
  return delivery;
}

/** GET /deliveries/release: recipients with an active SecuPass but no copies, per sent delivery. */
export async function releaseList(app: FastifyInstance, sender: UserRow): Promise<ReleaseList> {
  const deliveries = await app.db
    .selectFrom('deliveries')
    .selectAll()
    .where('sender_id', '=', sender.id)
    .where('status', '=', 'sent')
    .where('security_level', 'in', [SECURITY_LEVELS.LEVEL_3, SECURITY_LEVELS.LEVEL_4])
    .where('purged_at', 'is', null)
    .orderBy('sent_at', 'desc')
    .execute();
  const items: ReleaseList['items'] = [];
  for (const delivery of deliveries as DeliveryRow[]) {
    if (timeStateOf(delivery) === 'expired') continue;
    const recipients = (await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).where('removed_at', 'is', null).execute()) as RecipientRow[];
    const pending = await releasePendingOf(app, delivery, recipients);
    const waiting = recipients.filter((r) => pending.has(r.id));
    if (waiting.length === 0) continue;
    const users = await usersByEmail(app.db, waiting.map((r) => r.email));
    const states = await app.secupass.statesOf([...users.values()].map((u) => u.id));
    for (const r of waiting) {
      const user = users.get(r.email);
      if (!user || states.get(user.id) !== 'active') continue;
      items.push({
        deliveryUuid: delivery.uuid,
        subject: delivery.subject,
        securityLevel: delivery.security_level as SecurityLevel,
        sentAt: delivery.sent_at,
        recipient: { email: r.email, userUuid: user.uuid, keys: await app.secupass.publicKeysOf(user.id) },
      });
    }
  }
  return { items };
}

/** POST …/release: the sender re-wrapped every key of the delivery to one waiting recipient's key. */
export async function releaseDelivery(app: FastifyInstance, sender: UserRow, deliveryUuid: string, descriptors: readonly NewDescriptor[], log: FastifyBaseLogger): Promise<void> {
  const delivery = await releasableDelivery(app, sender, deliveryUuid);
  const recipients = (await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).execute()) as RecipientRow[];
  const pending = await releasePendingOf(app, delivery, recipients);
  const users = await usersByEmail(app.db, recipients.filter((r) => pending.has(r.id)).map((r) => r.email));
  const waitingIds = new Set([...users.values()].map((u) => u.id));
  const uuids = new Set(descriptors.map((d) => d.recipientUserUuid));
  if (uuids.size !== 1) throw badRequest('A release is for one recipient at a time', { field: 'descriptors', reason: 'oneRecipient' });
  const needed = await requiredFileIds(app, delivery);
  const target = [...users.values()].find((u) => uuids.has(u.uuid));
  if (target) {
    const keyIds = new Set(descriptors.map((d) => d.recipientKeyId));
    const complete = [...keyIds].every((keyId) => needed.every((f) => descriptors.some((d) => d.recipientKeyId === keyId && d.fileId === f)));
    if (!complete) throw badRequest('A release needs a copy of every file and of the manifest', { field: 'descriptors', reason: 'accessDescriptorsMissing' });
  }
  // storeDescriptors refuses anyone who is not waiting (incl. the sender and released recipients).
  await storeDescriptors(app, delivery, sender, descriptors, waitingIds);
  const recipient = recipients.find((r) => r.email === target!.email.toLowerCase())!;
  await activity(app.db, delivery.id, 'released', { actor: sender.email, recipientId: recipient.id, detail: recipient.email });
  const language = reduceLanguage(target!.language);
  await app.mailer
    .send({
      to: recipient.email,
      template: 'deliveryReleased',
      language,
      data: {
        senderName: displayName(sender),
        subject: delivery.subject || ENCRYPTED_SUBJECT_PLACEHOLDER[language],
        link: `${app.config.publicUrl}${DELIVERY_WEB_LINKS.inbox(delivery.uuid)}`,
      },
    })
    .catch((err: unknown) => log.error({ err, deliveryUuid: delivery.uuid }, 'release mail failed'));
}

/**
 * After a user set a SecuPass: every sender of a sent E2E delivery waiting for this user is
 * mailed that a release is needed (SPEC §4: the recipient waits, the sender releases).
 */
export async function notifyReleaseNeeded(app: FastifyInstance, user: UserRow, log: FastifyBaseLogger): Promise<void> {
  const rows = await app.db
    .selectFrom('delivery_recipients as r')
    .innerJoin('deliveries as d', 'd.id', 'r.delivery_id')
    .selectAll('d')
    .select(['r.id as r_id'])
    .where('r.email', '=', user.email.toLowerCase())
    .where('r.removed_at', 'is', null)
    .where('d.status', '=', 'sent')
    .where('d.security_level', 'in', [SECURITY_LEVELS.LEVEL_3, SECURITY_LEVELS.LEVEL_4])
    .where('d.purged_at', 'is', null)
    .execute();
  for (const row of rows) {
    const delivery = row as unknown as DeliveryRow;
    if (timeStateOf(delivery) === 'expired') continue;
    const sender = await app.users.findById(delivery.sender_id);
    if (!sender) continue;
    const language = reduceLanguage(sender.language);
    await app.mailer
      .send({
        to: sender.email,
        template: 'releaseNeeded',
        language,
        data: {
          recipient: user.email,
          subject: delivery.subject || ENCRYPTED_SUBJECT_PLACEHOLDER[language],
          link: `${app.config.publicUrl}${DELIVERY_WEB_LINKS.release(language)}`,
        },
      })
      .catch((err: unknown) => log.error({ err, deliveryUuid: delivery.uuid }, 'release-needed mail failed'));
  }
}
