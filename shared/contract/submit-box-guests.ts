import { z } from 'zod';
import { LanguageSchema } from './user';

/**
 * Submit-box guest tickets (issue 33 §3, like FileSender's guest vouchers): the box owner
 * (ROLE_SUBMITBOX_OWNER) creates a single-use ticket for a named person with a subject, a message
 * and an expiry; it is mailed to them (the link carries the ticket in its fragment, as every
 * ticket's). The owner lists their tickets with the state and revokes one; a revoked ticket's
 * link answers 409 `SubmitTicketRevokedException`.
 *
 * | Call | What |
 * |---|---|
 * | POST /submit-box/guest-tickets | creates and mails a ticket (201) |
 * | GET /submit-box/guest-tickets | the caller's guest tickets, newest first |
 * | DELETE /submit-box/guest-tickets/{ticketUuid} | revokes one (204; another owner's or unknown: 404) |
 */
export const GUEST_TICKET_SUBJECT_MAX = 200;
export const GUEST_TICKET_MESSAGE_MAX = 5_000;
export const GUEST_TICKET_MAX_DAYS = 90;
export const GUEST_TICKET_STATES = ['unused', 'used', 'expired', 'revoked'] as const;
export type GuestTicketState = (typeof GUEST_TICKET_STATES)[number];

export const GuestTicketCreateSchema = z
  .object({
    email: z.string().max(320),
    subject: z.string().max(GUEST_TICKET_SUBJECT_MAX).default(''),
    message: z.string().max(GUEST_TICKET_MESSAGE_MAX).default(''),
    /** Days the ticket is valid, 1–90. */
    validDays: z.number().int().min(1).max(GUEST_TICKET_MAX_DAYS),
    /** The mail's language (default: the owner's). */
    language: LanguageSchema.optional(),
  })
  .strict()
  .meta({ id: 'GuestTicketCreate' });
export type GuestTicketCreate = z.input<typeof GuestTicketCreateSchema>;

export const GuestTicketSchema = z
  .object({
    ticketUuid: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
    /** Epoch ms. */
    createdAt: z.number(),
    expiresAt: z.number(),
    usedAt: z.number().nullable(),
    revokedAt: z.number().nullable(),
    state: z.enum(GUEST_TICKET_STATES),
  })
  .meta({ id: 'GuestTicket' });
export type GuestTicket = z.infer<typeof GuestTicketSchema>;

export const GuestTicketListSchema = z.object({ items: z.array(GuestTicketSchema) }).meta({ id: 'GuestTicketList' });
export type GuestTicketList = z.infer<typeof GuestTicketListSchema>;

export const GuestTicketParamsSchema = z.object({ ticketUuid: z.string().max(64) }).strict();
