import { randomBytes, randomUUID } from 'node:crypto';
import { reduceLanguage } from '@shared/contract/constants';
import { SUBMIT_BOX_ERRORS, SUBMIT_BOX_WEB_LINKS } from '@shared/contract/submit-box';
import type { GuestTicket, GuestTicketList, GuestTicketState } from '@shared/contract/submit-box-guests';
import { GuestTicketCreateSchema } from '@shared/contract/submit-box-guests';
import { isValidEmail } from '@shared/rules/send-rules';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { badRequest, notFound } from '../core/http-error';
import { hashToken } from '../deliveries/records';
import type { UserRow } from '../users/users-repository';
import { openBox, ownBox, ownerName, submitBoxError } from './boxes';
import type { SubmitTicketsTable } from './tables';

/**
 * Guest tickets (issue 33 §3, shared/contract/submit-box-guests.ts): tickets the box owner makes
 * for a named person, in the table of the partners' own tickets (`owner_created` 1, migration
 * 0073), so the ticket page and its single use (./tickets.ts) are the same; only a revoked one
 * answers differently there.
 */
const DAY_MS = 86_400_000;
type TicketRow = Selectable<SubmitTicketsTable>;

function stateOf(row: TicketRow, now: number): GuestTicketState {
  if (row.revoked_at !== null) return 'revoked';
  if (row.used_at !== null) return 'used';
  return row.expires_at <= now ? 'expired' : 'unused';
}

function toWire(row: TicketRow, now = Date.now()): GuestTicket {
  return {
    ticketUuid: row.uuid ?? '',
    email: row.email,
    subject: row.subject ?? '',
    message: row.message ?? '',
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    state: stateOf(row, now),
  };
}

/** Creates the ticket and mails it; no mail, no ticket (503 `SubmitTicketCreationException`). */
export async function createGuestTicket(app: FastifyInstance, owner: UserRow, body: z.output<typeof GuestTicketCreateSchema>, log: FastifyBaseLogger): Promise<GuestTicket> {
  const open = await openBox(app, await ownBox(app, owner));
  const email = body.email.trim().toLowerCase();
  if (!isValidEmail(email)) throw badRequest('Please enter a valid email address', { problems: [{ field: 'email', reason: 'invalidEmail' }] });
  // One line: it becomes the mail's subject and the delivery's.
  const subject = body.subject.replace(/\s+/g, ' ').trim();
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const uuid = randomUUID();
  await app.db
    .insertInto('submit_tickets')
    .values({
      token_hash: hashToken(token),
      box_user_id: owner.id,
      email,
      language: body.language ?? reduceLanguage(owner.language),
      created_at: now,
      expires_at: now + body.validDays * DAY_MS,
      used_at: null,
      delivery_id: null,
      session_id: null,
      uuid,
      owner_created: 1,
      subject,
      message: body.message.trim(),
      revoked_at: null,
    })
    .execute();
  const row = await app.db.selectFrom('submit_tickets').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
  try {
    await app.mailer.send({
      to: email,
      template: 'submitGuestTicket',
      language: body.language ?? reduceLanguage(owner.language),
      data: {
        ownerName: ownerName(open.owner),
        subject,
        message: row.message ?? '',
        link: `${app.config.publicUrl}${SUBMIT_BOX_WEB_LINKS.ticket(token)}`,
        expiresOn: new Date(Number(row.expires_at)).toISOString().slice(0, 10),
      },
    });
  } catch (err) {
    await app.db.deleteFrom('submit_tickets').where('id', '=', row.id).execute();
    log.error({ err }, 'guest ticket mail failed');
    throw submitBoxError(503, SUBMIT_BOX_ERRORS.ticketCreation, 'The ticket could not be sent; please try again later');
  }
  return toWire(row, now);
}

export async function listGuestTickets(app: FastifyInstance, owner: UserRow): Promise<GuestTicketList> {
  const rows = await app.db.selectFrom('submit_tickets').selectAll().where('box_user_id', '=', owner.id).where('owner_created', '=', 1).orderBy('id', 'desc').execute();
  const now = Date.now();
  return { items: rows.map((r) => toWire(r, now)) };
}

/** Revokes an unused ticket of the caller's; a used one stays used (409), another owner's is unknown (404). */
export async function revokeGuestTicket(app: FastifyInstance, owner: UserRow, ticketUuid: string): Promise<void> {
  const row = await app.db.selectFrom('submit_tickets').selectAll().where('uuid', '=', ticketUuid).where('box_user_id', '=', owner.id).where('owner_created', '=', 1).executeTakeFirst();
  if (!row) throw notFound('This guest ticket does not exist');
  if (row.revoked_at !== null) return;
  // Only while unused: a ticket whose use began keeps its submission.
  const revoked = await app.db.updateTable('submit_tickets').set({ revoked_at: Date.now() }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
  if (Number(revoked.numUpdatedRows) !== 1) throw submitBoxError(409, SUBMIT_BOX_ERRORS.ticketUsed, 'This ticket was used already; it cannot be revoked');
}

/** The ticket page and the use: a revoked ticket says so. */
export function assertNotRevoked(row: Pick<TicketRow, 'revoked_at'>): void {
  if (row.revoked_at !== null) throw submitBoxError(409, SUBMIT_BOX_ERRORS.ticketRevoked, 'The owner of this submit box revoked this link; please ask them for a new one');
}
