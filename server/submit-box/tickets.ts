import { randomBytes } from 'node:crypto';
import { reduceLanguage, type Language } from '@shared/contract/constants';
import { isValidEmail } from '@shared/rules/send-rules';
import {
  SUBMIT_BOX_ERRORS,
  SUBMIT_BOX_WEB_LINKS,
  SUBMIT_TICKET_LIMIT_PER_ADDRESS,
  SUBMIT_TICKET_LIMIT_PER_IP,
  SUBMIT_TICKET_LIMIT_WINDOW_MS,
  SUBMIT_TICKET_MAIL_MINUTES,
  SUBMIT_TICKET_VALID_DAYS,
  type SubmitStartBody,
  type SubmitStartResponse,
  type SubmitTicketSent,
  type SubmitTicketState,
} from '@shared/contract/submit-box';
import { encryptsMessage, isE2eLevel } from '@shared/contract/security-levels';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { accessDenied, badRequest, rateLimitExceeded } from '../core/http-error';
import { createDraft } from '../deliveries/drafts';
import { hashToken } from '../deliveries/records';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { isSubmitterOnly, submitterAccount } from '../users/submitter-accounts';
import { boxOfOwner, openBox, ownerName, submitBoxError, type OpenBox } from './boxes';
import { assertNotRevoked } from './guest-tickets';

const DAY_MS = 86_400_000;

const SUBJECTS: Record<Language, (email: string) => string> = {
  de: (email) => `Submit-Box: Einsendung von ${email}`,
  en: (email) => `Submit box: submission from ${email}`,
  fr: (email) => `Boîte de dépôt : envoi de ${email}`,
};

/**
 * What the owner's notification mail names for a submission (issue 33 §2), in the owner's
 * language: the guest ticket's subject, else the submitter's address. Also at level 4, whose
 * stored subject is empty: the address is on the ticket and in the mail's sender line anyway.
 * Undefined for a delivery that no ticket started.
 */
export async function submissionMailSubject(app: FastifyInstance, deliveryId: number, language: Language): Promise<string | undefined> {
  const row = await app.db.selectFrom('submit_tickets').select(['email', 'subject']).where('delivery_id', '=', deliveryId).executeTakeFirst();
  return row ? row.subject || SUBJECTS[language](row.email) : undefined;
}

function normalisedEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!isValidEmail(email)) throw badRequest('Please enter a valid email address', { field: 'email', reason: 'invalidEmail' });
  return email;
}

/**
 * Mails a single-use ticket for the open box (the public page or the owner). Rate limited per
 * client address and per address in the database (several servers share the counts).
 */
export async function issueTicket(
  app: FastifyInstance,
  open: OpenBox,
  input: { email: string; language?: Language | undefined; ip: string },
  log: FastifyBaseLogger,
): Promise<SubmitTicketSent> {
  const email = normalisedEmail(input.email);
  const window = (limit: number) => ({ limit, windowMs: SUBMIT_TICKET_LIMIT_WINDOW_MS });
  const byIp = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.submitTicketIp, input.ip, window(SUBMIT_TICKET_LIMIT_PER_IP));
  if (!byIp.allowed) throw rateLimitExceeded(byIp.retryAfterMs);
  const byAddress = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.submitTicketAddress, email, window(SUBMIT_TICKET_LIMIT_PER_ADDRESS));
  if (!byAddress.allowed) throw rateLimitExceeded(byAddress.retryAfterMs);
  const token = randomBytes(32).toString('base64url');
  const language = input.language ?? 'en';
  const now = Date.now();
  await app.db
    .insertInto('submit_tickets')
    .values({ token_hash: hashToken(token), box_user_id: open.box.user_id, email, language, created_at: now, expires_at: now + SUBMIT_TICKET_VALID_DAYS * DAY_MS, used_at: null, delivery_id: null, session_id: null })
    .execute();
  try {
    await app.mailer.send({
      to: email,
      template: 'submitTicket',
      language,
      data: { ownerName: ownerName(open.owner), link: `${app.config.publicUrl}${SUBMIT_BOX_WEB_LINKS.ticket(token)}`, validDays: SUBMIT_TICKET_VALID_DAYS },
    });
  } catch (err) {
    // No mail, no ticket: the partner asks again.
    await app.db.deleteFrom('submit_tickets').where('token_hash', '=', hashToken(token)).execute();
    log.error({ err }, 'submit ticket mail failed');
    throw submitBoxError(503, SUBMIT_BOX_ERRORS.ticketCreation, 'The ticket could not be sent; please try again later');
  }
  return { expectedWithinMinutes: SUBMIT_TICKET_MAIL_MINUTES };
}

async function ticketRow(app: FastifyInstance, token: string) {
  const row = token.length < 20 ? undefined : await app.db.selectFrom('submit_tickets').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();
  if (!row || row.expires_at <= Date.now()) throw submitBoxError(404, SUBMIT_BOX_ERRORS.notFound, 'This ticket does not exist or has expired; please ask for a new one');
  return row;
}

/** The ticket page: the §8 class of a used ticket or a closed box, else owner and level. */
export async function ticketState(app: FastifyInstance, token: string): Promise<SubmitTicketState> {
  const row = await ticketRow(app, token);
  assertNotRevoked(row);
  if (row.used_at !== null) {
    // The page links back to the box's public page (public anyway), where a new link is asked for.
    const box = await boxOfOwner(app, row.box_user_id);
    throw submitBoxError(409, SUBMIT_BOX_ERRORS.ticketUsed, 'This ticket was used already; please ask for a new one', box ? { boxUuid: box.uuid } : {});
  }
  const open = await openBox(app, await boxOfOwner(app, row.box_user_id));
  return { ownerName: ownerName(open.owner), ownerEmail: open.owner.email, securityLevel: open.level, submitterEmail: row.email, allowedLevels: open.levels };
}

/**
 * Uses the ticket — once: an atomic UPDATE … WHERE used_at IS NULL decides between parallel
 * uses. Then the delivery draft to the owner (the ordinary §5 checks) and a session limited to
 * that draft. A failing draft gives the ticket back, so nothing half-made stays.
 */
export async function startSubmission(app: FastifyInstance, token: string, input: SubmitStartBody, log: FastifyBaseLogger): Promise<SubmitStartResponse> {
  const row = await ticketRow(app, token);
  assertNotRevoked(row);
  if (row.used_at !== null) throw submitBoxError(409, SUBMIT_BOX_ERRORS.ticketUsed, 'This ticket was used already; please ask for a new one');
  const box = await openBox(app, await boxOfOwner(app, row.box_user_id));
  // The partner may choose among the levels the box allows now (issue 33 §2); else the highest.
  if (input.securityLevel !== undefined && !box.levels.includes(input.securityLevel)) {
    throw badRequest('This submit box does not take submissions at that security level', { field: 'securityLevel', reason: 'levelNotAllowed' });
  }
  const open = { ...box, level: input.securityLevel ?? box.level };
  const now = Date.now();
  const claimed = await app.db.updateTable('submit_tickets').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).where('revoked_at', 'is', null).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw submitBoxError(409, SUBMIT_BOX_ERRORS.ticketUsed, 'This ticket was used already; please ask for a new one');
  const language = input.language ?? reduceLanguage(row.language);
  try {
    const submitter = await submitterAccount(app, row.email, language);
    if (submitter.disabled === 1) throw accessDenied();
    const encrypted = isE2eLevel(open.level);
    // Levels 3/4 sign with a throwaway SecuPass of the submitter account (submitter-keys.ts): an
    // address with a real account would lose its own keys, so it sends from its account instead.
    if (encrypted && !isSubmitterOnly(submitter)) {
      throw submitBoxError(409, SUBMIT_BOX_ERRORS.encryptedUnavailable, 'This address has an account: please sign in and send an encrypted delivery from it');
    }
    const draft = await createDraft(
      { app, user: submitter, log },
      {
        recipients: [open.owner.email.toLowerCase()],
        additionalRecipients: [],
        // Level 4: subject and message travel only inside the encrypted manifest.
        // A guest ticket's subject (issue 33 §3) names the delivery; else the standard one.
        subject: encryptsMessage(open.level) ? '' : row.subject || SUBJECTS[language](row.email),
        body: input.message,
        securityLevel: open.level,
        validityDays: open.box.validity_days ?? undefined,
        language,
        // The box's notification setting: off, the owner finds it in the inbox without a mail.
        quiet: open.box.notify === 0,
      },
    );
    const session = await app.sessions.create(submitter.id, 'submit');
    await app.db.updateTable('submit_tickets').set({ delivery_id: draft.id, session_id: session.session.id }).where('id', '=', row.id).execute();
    return { deliveryUuid: draft.uuid, sessionToken: session.token, ownerEmail: open.owner.email, securityLevel: open.level, submitterUserUuid: submitter.uuid };
  } catch (error) {
    await app.db.updateTable('submit_tickets').set({ used_at: null }).where('id', '=', row.id).where('delivery_id', 'is', null).execute();
    throw error;
  }
}

/** The delivery a submit session may touch (its ticket's draft), for the access check. */
export async function submitSessionDelivery(app: FastifyInstance, sessionId: string): Promise<string | undefined> {
  const row = await app.db
    .selectFrom('submit_tickets as t')
    .innerJoin('deliveries as d', 'd.id', 't.delivery_id')
    .select('d.uuid')
    .where('t.session_id', '=', sessionId)
    .executeTakeFirst();
  return row?.uuid;
}
