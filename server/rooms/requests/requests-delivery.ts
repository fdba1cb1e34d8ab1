// Data-room requests, the answer: the requested address's delivery draft (recipient fixed to the
// requester), the checks before its send, and the send marking the request used and queueing the
// copy of its files into the folder (requests-copy.ts). Hooks: app.ts `deliveryHooks`.
import type { RoomRequestDeliveryBody } from '@shared/contract/room-requests';
import type { DeliveryDetail } from '@shared/contract/deliveries';
import type { Transaction } from 'kysely';
import { accessDenied, badRequest, HttpError } from '../../core/http-error';
import type { RequestContext } from '../../core/request-context';
import type { Database } from '../../db/schema';
import { deliveryDetail } from '../../deliveries/detail';
import { createDraft } from '../../deliveries/drafts';
import type { DeliveryRow } from '../../deliveries/records';
import { isE2eLevel, resolveSecurityLevel } from '../../deliveries/rules';
import { senderSendConfig } from '../../deliveries/senders';
import { enqueueJob } from '../../jobs/job-queue';
import { openRequestByToken, requestGone, stateOf } from './request-rows';
import { refuseEncryptedRoom, requestPlace } from './requests';

export const ROOM_REQUEST_COPY_JOB = 'roomRequestCopy';
export interface RoomRequestCopyPayload {
  requestId: number;
}

/** Levels 3/4 are end-to-end encrypted: the server could not put their files into the room. */
const refuseE2eLevel = () =>
  new HttpError(409, 'ConflictException', 'A requested delivery goes at level 1 or 2: the server copies its files into the data room, which it cannot do with end-to-end encrypted files', {
    reason: 'encryptedLevel',
  });

/**
 * The draft answering a request: only the requested address's account; the requester is its one
 * recipient. An earlier draft of this request by the same sender is answered again (a retry).
 */
export async function createRequestDelivery(ctx: RequestContext, token: string, input: RoomRequestDeliveryBody): Promise<DeliveryDetail> {
  const { app, user } = ctx;
  const row = await openRequestByToken(app.db, token);
  if (user.email.toLowerCase() !== row.email) throw accessDenied('This request was sent to another address');
  const { room, folder, requester } = await requestPlace(app, row);
  refuseEncryptedRoom(room);
  if (row.delivery_id !== null) {
    const earlier = await app.db.selectFrom('deliveries').selectAll().where('id', '=', row.delivery_id).executeTakeFirst();
    if (earlier && earlier.status === 'draft' && earlier.sender_id === user.id) return deliveryDetail(app, { kind: 'sender', delivery: earlier as DeliveryRow });
  }
  const level = resolveSecurityLevel(input.securityLevel, await senderSendConfig(app, user));
  if (isE2eLevel(level)) throw refuseE2eLevel();
  const draft = await createDraft(ctx, {
    recipients: [requester.email],
    additionalRecipients: [],
    subject: input.subject?.trim() || (folder ? `${room.name} / ${folder.name}` : room.name),
    body: input.body ?? '',
    securityLevel: level,
  });
  await app.db.updateTable('room_requests').set({ delivery_id: draft.id }).where('id', '=', row.id).execute();
  return deliveryDetail(app, { kind: 'sender', delivery: draft });
}

/** Before the send's checks: a request's draft still answers an open request, to the requester only, at level 1/2. */
export async function requestBeforeSend(ctx: RequestContext, delivery: DeliveryRow): Promise<void> {
  const { db } = ctx.app;
  const row = await db.selectFrom('room_requests').selectAll().where('delivery_id', '=', delivery.id).executeTakeFirst();
  if (!row) return;
  const state = stateOf(row);
  if (state !== 'open') throw requestGone(state);
  if (isE2eLevel(delivery.security_level)) throw refuseE2eLevel();
  const requester = await db.selectFrom('users').select('email').where('id', '=', row.requester_id).executeTakeFirstOrThrow();
  const recipients = await db.selectFrom('delivery_recipients').select(['email', 'kind']).where('delivery_id', '=', delivery.id).execute();
  if (recipients.length !== 1 || recipients[0]!.email.toLowerCase() !== requester.email.toLowerCase()) {
    throw badRequest('A requested delivery goes to the requester only', { field: 'recipients', reason: 'requestRecipientFixed' });
  }
}

/**
 * Inside the send transaction: the request becomes used (a guarded update, so of two sends racing
 * only one wins; the other's transaction rolls back with 410) and its copy job is queued with it.
 */
export async function requestOnSent(trx: Transaction<Database>, delivery: DeliveryRow): Promise<void> {
  const row = await trx.selectFrom('room_requests').select(['id', 'used_at', 'revoked_at', 'expires_at']).where('delivery_id', '=', delivery.id).executeTakeFirst();
  if (!row) return;
  const now = Date.now();
  const updated = await trx
    .updateTable('room_requests')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw requestGone(stateOf(row, now));
  await enqueueJob(trx, ROOM_REQUEST_COPY_JOB, { requestId: row.id } satisfies RoomRequestCopyPayload);
}
