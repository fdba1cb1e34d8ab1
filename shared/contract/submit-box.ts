import { z } from 'zod';
import { SecurityLevelSchema } from './deliveries';
import { SUBMIT_TICKET_HEADER, tokenHeadersSchema } from './link-token';
import { LanguageSchema } from './user';

/**
 * The submit box (SPEC §1–§4, issue 16 §1): a personal drop-off box. Its owner (ROLE_SUBMITBOX_OWNER)
 * activates it and chooses the allowed levels; a partner without an account asks for a single-use
 * ticket on the public page (`/submit/{boxUuid}`), gets the link by mail and submits files and a
 * message, which become a delivery to the owner through the ordinary delivery calls.
 *
 * | Call | Who | What |
 * |---|---|---|
 * | GET /submit-box | ROLE_SUBMITBOX_OWNER | the caller's box (created inactive on first read) |
 * | PUT /submit-box | ROLE_SUBMITBOX_OWNER | active, allowed levels, validity, notification |
 * | POST /submit-box/tickets | ROLE_SUBMITBOX_OWNER | mails a ticket to an address |
 * | GET /submit-boxes/{boxUuid} | public | the public page's state (or its §8 error) |
 * | POST /submit-boxes/{boxUuid}/tickets | public, rate limited per address and IP | mails a ticket → 202 |
 * | GET /submit-tickets/by-token | public (the mailed token, header `x-submit-ticket`) | the ticket page's state |
 * | POST /submit-tickets/by-token/start | public (the mailed token, header `x-submit-ticket`) | uses the ticket once: a delivery draft to the owner and a session limited to it |
 * | PUT /submit-box/deliveries/{deliveryUuid}/keys | the submit session, its draft | levels 3/4: the submitter's throwaway SecuPass (public keys, wrapped blob) |
 */

/** Global switch (System settings, PUT /admin/settings): false disables every submit box. */
export const SUBMIT_BOX_SETTING_KEY = 'kuvert.submitBox.enabled';

/** SPEC §9: the ticket mail is expected within 5 minutes. */
export const SUBMIT_TICKET_MAIL_MINUTES = 5;
/** A ticket opens the ticket page for this long (our decision: a week covers a weekend). */
export const SUBMIT_TICKET_VALID_DAYS = 7;
/** Ticket requests per address and per client address within an hour (issue 16 §1). */
export const SUBMIT_TICKET_LIMIT_PER_ADDRESS = 3;
export const SUBMIT_TICKET_LIMIT_PER_IP = 20;
export const SUBMIT_TICKET_LIMIT_WINDOW_MS = 60 * 60_000;
export const SUBMIT_MESSAGE_MAX_LENGTH = 10_000;

/** The §8 error classes of the submit box (`error` of the answer). */
export const SUBMIT_BOX_ERRORS = {
  notFound: 'SubmitBoxNotFoundException',
  notEnabled: 'SubmitBoxNotEnabledException',
  globallyDisabled: 'SubmitBoxGloballyDisabledException',
  ticketUsed: 'SubmitTicketUsedException',
  noAllowedLevel: 'SubmitBoxNoAllowedSecurityLevelException',
  recipientWithoutPassphrase: 'SubmitBoxRecipientWithoutPassphraseException',
  encryptedUnavailable: 'SubmitBoxEncryptedSubmitUnavailableException',
  ticketCreation: 'SubmitTicketCreationException',
  /** Issue 33 §3: the owner revoked this guest ticket (server/submit-box/guest-tickets.ts). */
  ticketRevoked: 'SubmitTicketRevokedException',
} as const;
export type SubmitBoxError = (typeof SUBMIT_BOX_ERRORS)[keyof typeof SUBMIT_BOX_ERRORS];

/** The web's ticket page. */
export const SUBMIT_TICKET_PAGE = '/submit/ticket';

/** Web paths of the public pages (the mail links to the ticket page). */
export const SUBMIT_BOX_WEB_LINKS = {
  box: (boxUuid: string) => `/submit/${encodeURIComponent(boxUuid)}`,
  /** The ticket in the fragment (issue 28): never sent to a server. Mails sent before linked `/submit/ticket/{ticket}`. */
  ticket: (ticket: string) => `${SUBMIT_TICKET_PAGE}#ticket=${encodeURIComponent(ticket)}`,
};

/** The public ticket calls: the ticket in the `x-submit-ticket` header, never in the path (issue 28). */
export const SUBMIT_TICKET_PATHS = { ticket: '/submit-tickets/by-token', start: '/submit-tickets/by-token/start' } as const;

export const SubmitBoxSchema = z
  .object({
    boxUuid: z.string(),
    active: z.boolean(),
    allowedLevels: z.array(SecurityLevelSchema),
    /** Days the submitted delivery stays; null = the system default. */
    validityDays: z.number().int().nullable(),
    /** The owner is mailed about each submission (the delivery mail); off: it only appears in the inbox. */
    notifyOnSubmit: z.boolean(),
    /** The administrator switched every submit box off (System settings). */
    globallyDisabled: z.boolean(),
    /** Whether the owner has an active SecuPass (levels 3/4 need it). */
    ownerHasPassphrase: z.boolean(),
    /** Absolute link of the public page. */
    link: z.string(),
  })
  .meta({ id: 'SubmitBox' });
export type SubmitBox = z.infer<typeof SubmitBoxSchema>;

export const SubmitBoxUpdateSchema = z
  .object({
    active: z.boolean().optional(),
    allowedLevels: z.array(SecurityLevelSchema).max(4).optional(),
    validityDays: z.number().int().min(1).max(365).nullable().optional(),
    notifyOnSubmit: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'SubmitBoxUpdate' });
export type SubmitBoxUpdate = z.input<typeof SubmitBoxUpdateSchema>;

export const SubmitTicketRequestSchema = z
  .object({ email: z.string().max(320), language: LanguageSchema.optional() })
  .strict()
  .meta({ id: 'SubmitTicketRequest' });
export type SubmitTicketRequest = z.input<typeof SubmitTicketRequestSchema>;

export const SubmitTicketSentSchema = z
  .object({ expectedWithinMinutes: z.number().int() })
  .meta({ id: 'SubmitTicketSent' });
export type SubmitTicketSent = z.infer<typeof SubmitTicketSentSchema>;

export const SubmitBoxParamsSchema = z.object({ boxUuid: z.string().max(64) }).strict();
/** The ticket calls' credential: the mailed ticket in the `x-submit-ticket` header (shared/contract/link-token.ts). */
export const SubmitTicketHeadersSchema = tokenHeadersSchema(SUBMIT_TICKET_HEADER);

/** The public page and the ticket page: who receives, at which level. */
export const SubmitBoxPublicSchema = z
  .object({ ownerName: z.string(), securityLevel: SecurityLevelSchema })
  .meta({ id: 'SubmitBoxPublic' });
export type SubmitBoxPublic = z.infer<typeof SubmitBoxPublicSchema>;

export const SubmitTicketStateSchema = SubmitBoxPublicSchema.extend({
  ownerEmail: z.string(),
  submitterEmail: z.string(),
  /** The levels the partner may choose (lowest first; `securityLevel` is the default, the highest). */
  allowedLevels: z.array(SecurityLevelSchema),
}).meta({ id: 'SubmitTicketState' });
export type SubmitTicketState = z.infer<typeof SubmitTicketStateSchema>;

export const SubmitStartBodySchema = z
  .object({
    message: z.string().max(SUBMIT_MESSAGE_MAX_LENGTH),
    language: LanguageSchema.optional(),
    /** One of the ticket's `allowedLevels` (issue 33 §2); absent: the default, the highest. */
    securityLevel: SecurityLevelSchema.optional(),
  })
  .strict()
  .meta({ id: 'SubmitStartBody' });
export type SubmitStartBody = z.input<typeof SubmitStartBodySchema>;

/**
 * The used ticket: the delivery draft to the owner and a bearer token for the delivery calls of
 * this one draft (add files, parts, commit, send; nothing else).
 */
export const SubmitStartResponseSchema = z
  .object({
    deliveryUuid: z.string(),
    sessionToken: z.string(),
    ownerEmail: z.string(),
    securityLevel: SecurityLevelSchema,
    /** The sending (submitter) account: levels 3/4 bind its throwaway SecuPass to this id. */
    submitterUserUuid: z.string(),
  })
  .meta({ id: 'SubmitStartResponse' });
export type SubmitStartResponse = z.infer<typeof SubmitStartResponseSchema>;
