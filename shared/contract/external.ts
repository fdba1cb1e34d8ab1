import { z } from 'zod';
import { SecurityLevelSchema } from './deliveries';
import { LanguageSchema } from './user';

/**
 * The external recipient's path (SPEC §2 email prompt, download disclaimer, delivery signup and
 * its -dar variant with the SMS code screen; §8 registration errors). Level-agnostic: the answer
 * of the email check says what comes next (`download`, `login` or `signup`), so levels 3/4 reuse it.
 *
 * | call | who | what |
 * |---|---|---|
 * | POST /shares/{shareUuid}/link-check | public: anyone with a link (share + token), rate limited per IP | `{token}` → `LinkCheckResponse` before the email prompt asks anything; 404 `NotFoundException` with `metadata.reason` `linkInvalid`, `expired` (+ `expiredAt`) or `deleted` (the last two only for the right token); too many tries → 429 |
 * | POST /shares/{shareUuid}/email-check | public: the holder of the mailed link (share + token), rate limited | `{email, token}` → `EmailCheckResponse`; wrong address → 400 `ValidationException` (`reason: emailMismatch`); unknown share or token → 404; too many tries → 429 |
 * | POST /shares/{shareUuid}/sms-code | public: link holder with the right address, unregistered recipient of a level ≥ 2 delivery with a phone number | sends a code by SMS → `SmsCodeResponse`; again within the cool-down → 429 with `retryAfterSeconds` |
 * | POST /shares/{shareUuid}/signup | public: link holder with the right address (+ SMS code when required) | creates the account bound to the recipient's address (email verified by the link) → 201; the client then signs in with `POST /auth` |
 * | PUT  /deliveries/{deliveryUuid}/phone-numbers | ROLE_SENDER, the delivery's sender (draft or sent) | recipients' phone numbers for the SMS second factor |
 *
 * Tokens: the link token of the mail (`#token=` in the URL fragment, never in a log): for level 1
 * the download token, for higher levels a signup token issued to unregistered recipients only.
 * Only hashes are stored; a resent notification replaces them.
 */
export const EXTERNAL_PATHS = {
  emailCheck: (shareUuid: string) => `/shares/${encodeURIComponent(shareUuid)}/email-check`,
  emailCheckRoute: '/shares/:shareUuid/email-check',
  linkCheck: (shareUuid: string) => `/shares/${encodeURIComponent(shareUuid)}/link-check`,
  linkCheckRoute: '/shares/:shareUuid/link-check',
  smsCode: (shareUuid: string) => `/shares/${encodeURIComponent(shareUuid)}/sms-code`,
  smsCodeRoute: '/shares/:shareUuid/sms-code',
  signup: (shareUuid: string) => `/shares/${encodeURIComponent(shareUuid)}/signup`,
  signupRoute: '/shares/:shareUuid/signup',
  phoneNumbers: (deliveryUuid: string) => `/deliveries/${encodeURIComponent(deliveryUuid)}/phone-numbers`,
  phoneNumbersRoute: '/deliveries/:deliveryUuid/phone-numbers',
} as const;

/** The mail's link for link holders (level 1, and unregistered recipients of higher levels). */
export const EXTERNAL_WEB_LINKS = {
  emailPrompt: (language: string, shareUuid: string, token: string) =>
    `/secumails/${language}/email-prompt/${encodeURIComponent(shareUuid)}#token=${encodeURIComponent(token)}`,
} as const;

/** SMS code length (SPEC §9 `{codeLength}`): 6 digits like the other one-time codes. */
export const SMS_CODE_LENGTH = 6;
/** An SMS arrives within seconds; 10 minutes leave time to switch devices, not to guess. */
export const SMS_CODE_TTL_MS = 10 * 60_000;
/** Cool-down between two SMS for one share: the first one may still be on its way. */
export const SMS_RESEND_COOLDOWN_MS = 60_000;
/** Wrong codes before the code is void (a new one must be sent): 5 in 10^6 ≈ 1 : 200 000. */
export const SMS_MAX_ATTEMPTS = 5;
/** SMS cost money and can be used to pester: at most this many per share and hour. */
export const SMS_MAX_PER_HOUR = 5;
/**
 * Wrong addresses per share and client address in 15 minutes (a person mistypes a few times; a
 * guesser needs many). Per client address: someone else's wrong tries never lock the recipient out.
 */
export const EMAIL_CHECK_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const;
/** Email-check tries (right or wrong) per client address in 15 minutes (one office behind NAT may have several recipients). */
export const EMAIL_CHECK_IP_LIMIT = { limit: 60, windowMs: 15 * 60_000 } as const;
/** SPEC §5: phone format +49123456789 (E.164: a plus, 7 to 15 digits, no leading 0). */
export const PHONE_NUMBER_PATTERN = /^\+[1-9]\d{6,14}$/;

/** Settings (admin, `PUT /admin/settings`) of the external path; defaults in the server. */
export const EXTERNAL_SETTING_KEYS = {
  /** Show the download disclaimer before a delivery is opened. */
  downloadDisclaimerEnabled: 'kuvert.delivery.downloadDisclaimer.enabled',
  /** Its text per language: `.de|.en|.fr`. */
  downloadDisclaimerText: 'kuvert.delivery.downloadDisclaimer.text',
  /** Delivery signup always needs an SMS code (double-authenticated registration), not only when the sender gave a number. */
  signupRequiresSms: 'kuvert.delivery.signup.requireSms',
} as const;

export const ShareParamsSchema = z.object({ shareUuid: z.string().max(64) });

const linkProof = {
  email: z.string().max(1000),
  token: z.string().min(1).max(200),
};

export const EmailCheckBodySchema = z
  .object({ ...linkProof, language: LanguageSchema.optional() })
  .strict()
  .meta({ id: 'EmailCheckBody' });
export type EmailCheckBody = z.input<typeof EmailCheckBodySchema>;

export const LinkCheckBodySchema = z.object({ token: linkProof.token }).strict().meta({ id: 'LinkCheckBody' });
export type LinkCheckBody = z.input<typeof LinkCheckBodySchema>;
export const LinkCheckResponseSchema = z.object({ securityLevel: SecurityLevelSchema }).meta({ id: 'LinkCheckResponse' });
export type LinkCheckResponse = z.infer<typeof LinkCheckResponseSchema>;

/**
 * `metadata.reason` of a 404 answer of the share calls: the link is wrong (or was replaced by a
 * newer mail), or — told only to the holder of the right token — the delivery expired or was deleted.
 */
export const LINK_REFUSALS = ['linkInvalid', 'expired', 'deleted'] as const;
export type LinkRefusal = (typeof LINK_REFUSALS)[number];

export const NextStepSchema = z.enum(['download', 'login', 'signup']);
export type NextStep = z.infer<typeof NextStepSchema>;

export const EmailCheckResponseSchema = z
  .object({
    deliveryUuid: z.string(),
    shareUuid: z.string(),
    securityLevel: SecurityLevelSchema,
    language: LanguageSchema,
    /** What follows the disclaimer: the delivery (level 1), sign-in (registered) or signup. */
    next: NextStepSchema,
    /** The download disclaimer to accept first, or null when the setting is off. */
    disclaimer: z.object({ text: z.string() }).nullable(),
    /** Signup needs an SMS code; `phoneHint` shows the number's last digits, null when the sender gave none. */
    sms: z.object({ required: z.boolean(), phoneHint: z.string().nullable() }),
  })
  .meta({ id: 'EmailCheckResponse' });
export type EmailCheckResponse = z.infer<typeof EmailCheckResponseSchema>;

export const SmsCodeBodySchema = z.object(linkProof).strict().meta({ id: 'SmsCodeBody' });
export type SmsCodeBody = z.input<typeof SmsCodeBodySchema>;
export const SmsCodeResponseSchema = z
  .object({ phoneHint: z.string(), codeLength: z.number().int(), expiresInSeconds: z.number().int(), resendAfterSeconds: z.number().int() })
  .meta({ id: 'SmsCodeResponse' });
export type SmsCodeResponse = z.infer<typeof SmsCodeResponseSchema>;

export const SignupBodySchema = z
  .object({
    ...linkProof,
    password: z.string().max(1024),
    firstName: z.string().max(100).optional(),
    lastName: z.string().max(100).optional(),
    language: LanguageSchema.optional(),
    smsCode: z.string().max(20).optional(),
  })
  .strict()
  .meta({ id: 'DeliverySignupBody' });
export type SignupBody = z.input<typeof SignupBodySchema>;
export const SignupResponseSchema = z
  .object({ email: z.string(), deliveryUuid: z.string() })
  .meta({ id: 'DeliverySignupResponse' });
export type SignupResponse = z.infer<typeof SignupResponseSchema>;

/**
 * `metadata.reason` of the 400 answers of this path, for the screens' messages: the address does
 * not match, the SMS code is missing/wrong/expired/used up, the sender gave no phone number though
 * the SMS is required (SPEC §8 "second factor by SMS needs the sender to add a phone number").
 */
export const EXTERNAL_ERROR_REASONS = ['emailMismatch', 'smsCodeRequired', 'smsCodeWrong', 'smsCodeExpired', 'smsCodeLocked', 'phoneNumberMissing', 'signupNotApplicable'] as const;
export type ExternalErrorReason = (typeof EXTERNAL_ERROR_REASONS)[number];

export const PhoneNumbersBodySchema = z
  .object({
    phoneNumbers: z
      .array(z.object({ email: z.string().max(1000), phoneNumber: z.string().max(40).nullable() }).strict())
      .max(1000),
  })
  .strict()
  .meta({ id: 'PhoneNumbersBody' });
export type PhoneNumbersBody = z.input<typeof PhoneNumbersBodySchema>;
export const PhoneNumbersResponseSchema = z
  .object({ recipients: z.array(z.object({ shareUuid: z.string(), email: z.string(), phoneNumber: z.string().nullable() })) })
  .meta({ id: 'PhoneNumbers' });
export type PhoneNumbersResponse = z.infer<typeof PhoneNumbersResponseSchema>;
