import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { reduceLanguage, type Language, type RoleName } from '@shared/contract/constants';
import { opensByLink } from '@shared/contract/security-levels';
import {
  EMAIL_CHECK_IP_LIMIT,
  EMAIL_CHECK_LIMIT,
  EXTERNAL_SETTING_KEYS,
  PHONE_NUMBER_PATTERN,
  SMS_CODE_LENGTH,
  SMS_CODE_TTL_MS,
  SMS_MAX_ATTEMPTS,
  SMS_MAX_PER_HOUR,
  SMS_RESEND_COOLDOWN_MS,
  type EmailCheckResponse,
  type LinkCheckResponse,
  type LinkRefusal,
  type ExternalErrorReason,
  type PhoneNumbersResponse,
  type SignupResponse,
  type SmsCodeResponse,
} from '@shared/contract/external';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql, type Selectable } from 'kysely';
import { badRequest, HttpError, notFound, rateLimitExceeded } from '../core/http-error';
import { userAlreadyRegistered } from '../core/authorization-errors';
import { downloadDisclaimerText } from '../settings/defaults';
import { signupRow, upsertSignup } from '../deliveries/signups';
import type { DeliveriesTable, DeliveryRecipientsTable, DeliverySignupsTable } from '../deliveries/tables';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { assertPasswordMeetsPolicy } from '../security/password-policy';
import { hashPassword } from '../users/passwords';
import { UserExistsError, type UserRow } from '../users/users-repository';

type DeliveryRow = Selectable<DeliveriesTable>;
type RecipientRow = Selectable<DeliveryRecipientsTable>;
type SignupRow = Selectable<DeliverySignupsTable>;

/**
 * Roles of an account made by delivery signup: it receives, and ROLE_SENDER_EXTERNAL marks it as
 * an outsider (a full ROLE_SENDER is an administrator's decision, it may cost a licence).
 */
export const DELIVERY_SIGNUP_ROLES: readonly RoleName[] = ['ROLE_UI_USER', 'ROLE_RECEIVER', 'ROLE_SENDER_EXTERNAL'];
const HOUR_MS = 60 * 60_000;

const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
const normalizeEmail = (email: string) => email.trim().toLowerCase();
const refused = (reason: ExternalErrorReason, message: string, extra: Record<string, unknown> = {}) => badRequest(message, { reason, ...extra });

/** The last three digits only: enough to recognise one's phone, not enough to harvest numbers. */
export const phoneHint = (phone: string) => `•••${phone.slice(-3)}`;

/** `+49 123-456 789` → `+49123456789`; null when it is not a phone number of SPEC §5's format. */
export function normalizePhoneNumber(raw: string): string | null {
  const compact = raw.replace(/[\s\-()/.]/g, '');
  return PHONE_NUMBER_PATTERN.test(compact) ? compact : null;
}



/**
 * The account that owns this address: one whose address proved itself (code by mail, reset link,
 * signup link). An account someone else made for the address and that never proved it does not
 * count: the real owner may still sign up (and then takes it over, see `signUp`).
 */
async function registeredUser(app: FastifyInstance, email: string): Promise<UserRow | undefined> {
  const user = await accountOf(app, email);
  return user?.email_verified ? user : undefined;
}

async function accountOf(app: FastifyInstance, email: string): Promise<UserRow | undefined> {
  return app.db.selectFrom('users').selectAll().where(sql<string>`lower(email)`, '=', normalizeEmail(email)).executeTakeFirst();
}


interface LinkContext {
  delivery: DeliveryRow;
  recipient: RecipientRow;
  signup: SignupRow | undefined;
}

/**
 * The share behind a mailed link: the share must exist on a sent delivery and the token must be
 * its download token (level 1) or its signup token. A wrong token, an unknown share or a share of
 * another delivery are 404 alike (`reason: linkInvalid`), so the answer tells nothing about which
 * part was wrong. Only the holder of the right token learns more: the delivery was deleted (by the
 * sender, or the recipient was removed) or has expired — still 404, with that `reason`.
 */
async function shareByLink(app: FastifyInstance, shareUuid: string, token: string): Promise<LinkContext> {
  const missing = () => notFound('Delivery not found', { reason: 'linkInvalid' satisfies LinkRefusal });
  if (!isUuid(shareUuid)) throw missing();
  const recipient = await app.db.selectFrom('delivery_recipients').selectAll().where('uuid', '=', shareUuid).executeTakeFirst();
  if (!recipient) throw missing();
  const delivery = await app.db.selectFrom('deliveries').selectAll().where('id', '=', recipient.delivery_id).where('status', 'in', ['sent', 'deleted']).executeTakeFirst();
  if (!delivery) throw missing();
  const signup = await signupRow(app, recipient.id);
  const hash = sha256Hex(token.trim());
  const matches = (stored: string | null | undefined) => typeof stored === 'string' && timingSafeEqual(Buffer.from(stored), Buffer.from(hash));
  const valid = (opensByLink(delivery.security_level) && matches(recipient.token_hash)) || matches(signup?.token_hash);
  if (!valid) throw missing();
  if (delivery.status === 'deleted' || recipient.removed_at !== null) throw notFound('The delivery was deleted', { reason: 'deleted' satisfies LinkRefusal });
  if (delivery.purged_at !== null || (delivery.expires_at !== null && delivery.expires_at <= Date.now())) {
    throw notFound('The delivery has expired', { reason: 'expired' satisfies LinkRefusal, expiredAt: delivery.expires_at });
  }
  return { delivery, recipient, signup };
}

/**
 * Link check (before the email prompt asks anything): rate limited per IP like the email check,
 * then the link's state — 404 with `reason` linkInvalid, expired or deleted; else what the prompt needs.
 */
export async function checkLink(app: FastifyInstance, input: { shareUuid: string; token: string; ip: string }): Promise<LinkCheckResponse> {
  const byIp = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.emailCheckIp, input.ip, EMAIL_CHECK_IP_LIMIT);
  if (!byIp.allowed) throw rateLimitExceeded(byIp.retryAfterMs);
  const { delivery } = await shareByLink(app, input.shareUuid, input.token);
  return { securityLevel: delivery.security_level };
}

/**
 * Rate limits, then the share and the address the person typed. Two limits:
 * - per client address, every try (EMAIL_CHECK_IP_LIMIT): one client cannot walk many links;
 * - per share AND client address, wrong addresses only (EMAIL_CHECK_LIMIT): a guesser with the
 *   link is stopped, but only for themselves — someone else's wrong tries never lock the real
 *   recipient out of their own delivery (a per-share count could be exhausted by anyone holding
 *   the link, or only the share id). Tries with a wrong token are 404 and cost only the IP budget.
 */
async function checkedLink(app: FastifyInstance, input: { shareUuid: string; token: string; email: string; ip: string }): Promise<LinkContext> {
  const byIp = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.emailCheckIp, input.ip, EMAIL_CHECK_IP_LIMIT);
  if (!byIp.allowed) throw rateLimitExceeded(byIp.retryAfterMs);
  const shareAndAddress = `${input.shareUuid} ${input.ip}`;
  const wrongTries = await app.rateLimiter.count(RATE_LIMIT_BUCKETS.emailCheckShare, shareAndAddress, EMAIL_CHECK_LIMIT.windowMs);
  // Judged before the address is compared: past the limit, a right guess looks like a wrong one.
  if (wrongTries >= EMAIL_CHECK_LIMIT.limit) throw rateLimitExceeded(EMAIL_CHECK_LIMIT.windowMs);
  const context = await shareByLink(app, input.shareUuid, input.token);
  if (normalizeEmail(input.email) !== normalizeEmail(context.recipient.email)) {
    await app.rateLimiter.record(RATE_LIMIT_BUCKETS.emailCheckShare, shareAndAddress);
    throw refused('emailMismatch', 'This is not the address the delivery was sent to', { field: 'email' });
  }
  return context;
}

async function smsRequired(app: FastifyInstance, signup: SignupRow | undefined): Promise<boolean> {
  return Boolean(signup?.phone_number) || (await app.settings.get<boolean>(EXTERNAL_SETTING_KEYS.signupRequiresSms)) === true;
}

export async function checkEmail(
  app: FastifyInstance,
  input: { shareUuid: string; token: string; email: string; ip: string; language: Language | undefined },
): Promise<EmailCheckResponse & { proofFor: { recipientId: number; deliveryUuid: string } | null }> {
  const { delivery, recipient, signup } = await checkedLink(app, input);
  const language = input.language ?? reduceLanguage(delivery.language);
  const all = await app.settings.getAll();
  const disclaimerText = downloadDisclaimerText(all, language);
  const registered = Boolean(await registeredUser(app, recipient.email));
  const next = opensByLink(delivery.security_level) ? 'download' : registered ? 'login' : 'signup';
  return {
    deliveryUuid: delivery.uuid,
    shareUuid: recipient.uuid,
    securityLevel: delivery.security_level,
    language,
    next,
    disclaimer: all[EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled] === true ? { text: disclaimerText } : null,
    sms: {
      required: next === 'signup' && (await smsRequired(app, signup)),
      phoneHint: signup?.phone_number ? phoneHint(signup.phone_number) : null,
    },
    // Level 1: the route hands out the proof that the address was confirmed (deliveries/share-proof.ts).
    proofFor: next === 'download' ? { recipientId: recipient.id, deliveryUuid: delivery.uuid } : null,
  };
}

/** Signup applies to unregistered recipients of level ≥ 2 deliveries only. */
async function assertSignupApplies(app: FastifyInstance, context: LinkContext): Promise<void> {
  if (opensByLink(context.delivery.security_level)) {
    throw refused('signupNotApplicable', 'This delivery needs no account');
  }
  if (await registeredUser(app, context.recipient.email)) {
    throw userAlreadyRegistered();
  }
}

const SMS_TEXTS: Record<Language, (code: string, minutes: number) => string> = {
  de: (code, minutes) => `Ihr Kuvert-Code: ${code}\nEr ist ${minutes} Minuten gültig. Geben Sie ihn nicht weiter.`,
  en: (code, minutes) => `Your Kuvert code: ${code}\nIt is valid for ${minutes} minutes. Do not share it.`,
  fr: (code, minutes) => `Votre code Kuvert : ${code}\nIl est valable ${minutes} minutes. Ne le communiquez à personne.`,
};

export async function sendSmsCode(
  app: FastifyInstance,
  input: { shareUuid: string; token: string; email: string; ip: string },
  log: FastifyBaseLogger,
): Promise<SmsCodeResponse> {
  const context = await checkedLink(app, input);
  await assertSignupApplies(app, context);
  const phone = context.signup?.phone_number;
  if (!phone) throw refused('phoneNumberMissing', 'The sender has to add your phone number before you can register');
  const now = Date.now();
  const sentAt = context.signup?.code_sent_at ?? null;
  if (sentAt !== null && now - sentAt < SMS_RESEND_COOLDOWN_MS) throw rateLimitExceeded(SMS_RESEND_COOLDOWN_MS - (now - sentAt));
  const hourly = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.smsSentShare, context.recipient.uuid, { limit: SMS_MAX_PER_HOUR, windowMs: HOUR_MS });
  if (!hourly.allowed) throw rateLimitExceeded(hourly.retryAfterMs);

  const code = String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
  const salt = randomBytes(16).toString('hex');
  await upsertSignup(app, context.recipient.id, {
    code_hash: sha256Hex(`${salt}:${code}`),
    code_salt: salt,
    code_attempts: 0,
    code_sent_at: now,
    code_expires_at: now + SMS_CODE_TTL_MS,
  });
  const language = reduceLanguage(context.delivery.language);
  try {
    await app.sms.send({ to: phone, text: SMS_TEXTS[language](code, SMS_CODE_TTL_MS / 60_000) });
  } catch (err) {
    log.error({ err }, 'sending the signup SMS failed');
    // Nothing went out: no cool-down, the person may try again at once.
    await upsertSignup(app, context.recipient.id, { code_hash: null, code_salt: null, code_sent_at: null, code_expires_at: null });
    throw new HttpError(503, 'InternalServerException', 'The SMS could not be sent; please try again later', { reason: 'smsNotSent' });
  }
  return {
    phoneHint: phoneHint(phone),
    codeLength: SMS_CODE_LENGTH,
    expiresInSeconds: SMS_CODE_TTL_MS / 1000,
    resendAfterSeconds: SMS_RESEND_COOLDOWN_MS / 1000,
  };
}

/** Checks (and on success consumes) the share's SMS code; a wrong one uses up one try. */
async function verifySmsCode(app: FastifyInstance, recipientId: number, given: string | undefined): Promise<void> {
  const row = await signupRow(app, recipientId);
  const code = given?.replace(/\s+/g, '') ?? '';
  if (!row?.code_hash || !row.code_salt || code === '') throw refused('smsCodeRequired', 'Enter the code we sent you by SMS', { field: 'smsCode' });
  if ((row.code_expires_at ?? 0) <= Date.now()) throw refused('smsCodeExpired', 'The code has expired; request a new one', { field: 'smsCode' });
  if (row.code_attempts >= SMS_MAX_ATTEMPTS) throw refused('smsCodeLocked', 'Too many wrong codes; request a new one', { field: 'smsCode' });
  const expected = Buffer.from(row.code_hash, 'hex');
  const actual = Buffer.from(sha256Hex(`${row.code_salt}:${code}`), 'hex');
  if (!timingSafeEqual(expected, actual)) {
    await app.db
      .updateTable('delivery_signups')
      .set((eb) => ({ code_attempts: eb('code_attempts', '+', 1) }))
      .where('recipient_id', '=', recipientId)
      .execute();
    const attemptsLeft = Math.max(0, SMS_MAX_ATTEMPTS - row.code_attempts - 1);
    throw refused(attemptsLeft === 0 ? 'smsCodeLocked' : 'smsCodeWrong', 'The code is not correct', { field: 'smsCode', attemptsLeft });
  }
}

export async function signUp(
  app: FastifyInstance,
  input: {
    shareUuid: string;
    token: string;
    email: string;
    ip: string;
    password: string;
    firstName?: string | undefined;
    lastName?: string | undefined;
    language?: Language | undefined;
    smsCode?: string | undefined;
  },
): Promise<SignupResponse> {
  const context = await checkedLink(app, input);
  await assertSignupApplies(app, context);
  if (await smsRequired(app, context.signup)) {
    if (!context.signup?.phone_number) throw refused('phoneNumberMissing', 'The sender has to add your phone number before you can register');
  }
  // The password first: a policy miss must not cost an SMS try.
  await assertPasswordMeetsPolicy(app.settings, input.password);
  if (await smsRequired(app, context.signup)) await verifySmsCode(app, context.recipient.id, input.smsCode);
  const email = normalizeEmail(context.recipient.email);
  const unproven = await accountOf(app, email);
  if (unproven && !unproven.email_verified) {
    await claimUnprovenAccount(app, unproven, input);
    await upsertSignup(app, context.recipient.id, { token_hash: null, code_hash: null, code_salt: null, code_expires_at: null });
    await app.auditLog.record({ action: 'delivery.signup', actorUserId: unproven.id, subjectUserId: unproven.id, details: { deliveryUuid: context.delivery.uuid, claimedAccount: true } });
    return { email, deliveryUuid: context.delivery.uuid };
  }
  let created: UserRow;
  try {
    created = await app.users.create({
      username: email,
      email,
      passwordHash: await hashPassword(input.password),
      firstName: input.firstName?.trim() ?? '',
      lastName: input.lastName?.trim() ?? '',
      roles: DELIVERY_SIGNUP_ROLES,
      language: input.language ?? reduceLanguage(context.delivery.language),
      // The mailed link reached this address: that is the verification.
      emailVerified: true,
      // An outsider costs no licence: unlicensed until an administrator says otherwise.
      licensed: false,
    });
  } catch (error) {
    if (error instanceof UserExistsError) {
      throw userAlreadyRegistered();
    }
    throw error;
  }
  // Single use: the link and the code are spent.
  await upsertSignup(app, context.recipient.id, { token_hash: null, code_hash: null, code_salt: null, code_expires_at: null });
  await app.auditLog.record({ action: 'delivery.signup', actorUserId: created.id, subjectUserId: created.id, details: { deliveryUuid: context.delivery.uuid } });
  return { email, deliveryUuid: context.delivery.uuid };
}

/**
 * The real owner of an address signs up where someone else (an administrator) had made an account
 * for it that never proved the address: the owner takes it over. The signup link proved the address;
 * the password becomes the owner's, whatever the creator knew of the old one is worthless (every
 * session ends, a pending or registered authentication app is removed). Roles and licence stay as
 * the administrator set them. Single sign-on uses it too when the provider vouches for the address
 * (auth/oidc-sso.ts), with a random password the owner never sees (they set one by a reset link).
 */
export async function claimUnprovenAccount(
  app: FastifyInstance,
  account: UserRow,
  input: { password: string; firstName?: string | undefined; lastName?: string | undefined; language?: Language | undefined },
): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        email_verified: 1,
        totp_secret: null,
        totp_pending_secret: null,
        first_name: input.firstName?.trim() || account.first_name,
        last_name: input.lastName?.trim() || account.last_name,
        language: input.language ?? account.language,
        updated_at: Date.now(),
      })
      .where('id', '=', account.id)
      .where('email_verified', '=', 0)
      .execute();
    await trx.deleteFrom('sessions').where('user_id', '=', account.id).execute();
  });
}

/** The sender sets (or with null removes) recipients' phone numbers, before or after sending. */
export async function setPhoneNumbers(
  app: FastifyInstance,
  sender: UserRow,
  deliveryUuid: string,
  entries: Array<{ email: string; phoneNumber: string | null }>,
): Promise<PhoneNumbersResponse> {
  const delivery = isUuid(deliveryUuid) ? await app.db.selectFrom('deliveries').selectAll().where('uuid', '=', deliveryUuid).executeTakeFirst() : undefined;
  if (!delivery || delivery.sender_id !== sender.id || delivery.status === 'deleted') throw notFound('Delivery not found');
  const recipients = await app.db.selectFrom('delivery_recipients').selectAll().where('delivery_id', '=', delivery.id).execute();
  const byEmail = new Map(recipients.map((r) => [r.email.toLowerCase(), r]));
  const changes: Array<{ recipientId: number; phone: string | null }> = [];
  for (const entry of entries) {
    const recipient = byEmail.get(normalizeEmail(entry.email));
    if (!recipient) throw badRequest('Not a recipient of this delivery', { field: 'phoneNumbers', reason: 'unknownRecipient', email: entry.email });
    const phone = entry.phoneNumber === null || entry.phoneNumber.trim() === '' ? null : normalizePhoneNumber(entry.phoneNumber);
    if (entry.phoneNumber !== null && entry.phoneNumber.trim() !== '' && phone === null) {
      throw badRequest('Invalid phone number (format +49123456789)', { field: 'phoneNumbers', reason: 'invalidPhone', email: entry.email });
    }
    changes.push({ recipientId: recipient.id, phone });
  }
  for (const change of changes) await upsertSignup(app, change.recipientId, { phone_number: change.phone });
  const stored = await app.db
    .selectFrom('delivery_signups')
    .select(['recipient_id', 'phone_number'])
    .where(
      'recipient_id',
      'in',
      recipients.map((r) => r.id),
    )
    .execute();
  const phones = new Map(stored.map((s) => [s.recipient_id, s.phone_number]));
  return { recipients: recipients.map((r) => ({ shareUuid: r.uuid, email: r.email, phoneNumber: phones.get(r.id) ?? null })) };
}
