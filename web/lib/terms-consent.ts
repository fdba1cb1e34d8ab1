import { getTermsConsent } from '@shared/api/endpoints/terms';
import type { TermsConsent } from '@shared/contract/terms';
import { apiClient } from './api-client';

/**
 * The signed-in user's terms agreement, asked once per user and page load (the root loader runs on
 * every navigation; a version an administrator raises meanwhile is asked at the next load or sign-in).
 */
let cached: { userUuid: string; consent: Promise<TermsConsent | null> } | null = null;

export function termsConsentFor(userUuid: string): Promise<TermsConsent | null> {
  if (cached?.userUuid !== userUuid) {
    // A failed look-up never locks anybody out of the app: logged, and asked again next time.
    const consent = getTermsConsent(apiClient).catch((error: unknown) => {
      console.error('Loading the terms agreement failed', error);
      cached = null;
      return null;
    });
    cached = { userUuid, consent };
  }
  return cached.consent;
}

/** After POST /user/terms: the answer is the new state. */
export function rememberTermsConsent(userUuid: string, consent: TermsConsent): void {
  cached = { userUuid, consent: Promise.resolve(consent) };
}

/** The next look-up asks the server again (after a 409: another version is in force). */
export function forgetTermsConsent(): void {
  cached = null;
}
