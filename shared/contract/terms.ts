import { z } from 'zod';

/**
 * Terms of use and privacy agreement (SPEC §2 "Terms and privacy agreement screen", issue 34).
 * Our design (docs in server/README "Terms of use"): the administrator numbers the terms in force;
 * 0 asks nobody (the page is then informational, reachable from the login page). Each user's
 * agreement is stored with the version and time; a higher version asks every user again at their
 * next visit of the web client. The text is the built-in one unless the administrator wrote one
 * per language (a language left empty falls back to English, then to the built-in text).
 */
export const TERMS_SETTING_KEYS = {
  version: 'kuvert.terms.version',
  /** + `.de|.en|.fr` */
  text: 'kuvert.terms.text',
} as const;

export const TERMS_VERSION_MAX = 1_000_000;
export const TERMS_VERSION_RANGE = [0, TERMS_VERSION_MAX] as const;

/** GET /user/terms and the answer of POST /user/terms. */
export const TermsConsentSchema = z
  .object({
    /** The version in force; 0: no agreement is asked. */
    version: z.number().int().min(0).max(TERMS_VERSION_MAX),
    /** The version this user agreed to, null: never. */
    acceptedVersion: z.number().int().min(1).max(TERMS_VERSION_MAX).nullable(),
    /** ISO 8601; null: never. */
    acceptedAt: z.string().nullable(),
    /** True when the web client must ask before anything else (version > acceptedVersion). */
    required: z.boolean(),
    /** The administrator's text in the user's language, '' for the built-in text. */
    text: z.string(),
  })
  .meta({ id: 'TermsConsent' });
export type TermsConsent = z.infer<typeof TermsConsentSchema>;

/** POST /user/terms: the version the user read and agreed to (409 when another is in force by now). */
export const AcceptTermsBodySchema = z
  .object({ version: z.number().int().min(1).max(TERMS_VERSION_MAX) })
  .strict()
  .meta({ id: 'AcceptTermsBody' });
export type AcceptTermsBody = z.infer<typeof AcceptTermsBodySchema>;
