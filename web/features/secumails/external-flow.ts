import { opensByLink } from '@shared/contract/security-levels';
import type { EmailCheckResponse } from '@shared/contract/external';
import { loginPathFor, ROUTES, SECUMAILS_BASE } from '@web/lib/routes';

/**
 * The external recipient's way through the screens (SPEC §2): email prompt → disclaimer →
 * download, sign-in or signup → delivery. What the email prompt learned is kept per delivery in
 * the tab's sessionStorage, so a reload on a later screen goes on where it was and closing the
 * tab forgets the link token.
 */
export interface ExternalFlowState extends EmailCheckResponse {
  token: string;
  email: string;
  disclaimerAccepted: boolean;
}

const storageKey = (deliveryUuid: string) => `kuvert.external.${deliveryUuid}`;

export function saveExternalFlow(state: ExternalFlowState, storage: Storage = sessionStorage): void {
  storage.setItem(storageKey(state.deliveryUuid), JSON.stringify(state));
}

export function loadExternalFlow(deliveryUuid: string | undefined, storage: Storage = sessionStorage): ExternalFlowState | null {
  if (!deliveryUuid) return null;
  try {
    const raw = storage.getItem(storageKey(deliveryUuid));
    return raw ? (JSON.parse(raw) as ExternalFlowState) : null;
  } catch {
    return null;
  }
}

export function clearExternalFlow(deliveryUuid: string, storage: Storage = sessionStorage): void {
  storage.removeItem(storageKey(deliveryUuid));
}

const localePrefix = (locale: string | undefined) => (locale ? `/${locale}` : '');

/** SPEC §2: the email prompt with {shareUuid} (the mail's link adds `#token=`). */
export const emailPromptPath = (shareUuid: string, locale?: string) => `${SECUMAILS_BASE}${localePrefix(locale)}/email-prompt/${encodeURIComponent(shareUuid)}`;
/** SPEC §2: the download disclaimer with {deliveryUuid}. */
export const disclaimerPath = (deliveryUuid: string, locale?: string) => `${SECUMAILS_BASE}${localePrefix(locale)}/download-disclaimer/${encodeURIComponent(deliveryUuid)}`;

/** The delivery view: level 1 with the link token in the fragment, higher levels for the signed-in recipient. */
export function deliveryPathFor(state: Pick<ExternalFlowState, 'deliveryUuid' | 'shareUuid' | 'token' | 'securityLevel'>, locale?: string): string {
  const query = new URLSearchParams({ deliveryUuid: state.deliveryUuid, shareUuid: state.shareUuid }).toString();
  const base = `${SECUMAILS_BASE}${localePrefix(locale)}/download?${query}`;
  return opensByLink(state.securityLevel) ? `${base}#token=${encodeURIComponent(state.token)}` : base;
}

/** Signup, or its double-authenticated (-dar) variant when an SMS code is needed. */
export const signupPathFor = (state: Pick<ExternalFlowState, 'deliveryUuid' | 'sms'>) =>
  `${state.sms.required ? ROUTES.deliverySignupDar : ROUTES.deliverySignup}?${new URLSearchParams({ deliveryUuid: state.deliveryUuid }).toString()}`;

/**
 * Where the flow goes once the address is confirmed: the disclaimer while it is not accepted,
 * then the delivery (level 1, or the recipient is signed in already), sign-in, or signup.
 */
export function nextPathFor(state: ExternalFlowState, locale: string | undefined, signedInEmail: string | null): string {
  if (state.disclaimer && !state.disclaimerAccepted) return disclaimerPath(state.deliveryUuid, locale);
  if (state.next === 'download') return deliveryPathFor(state, locale);
  if (signedInEmail && signedInEmail.toLowerCase() === state.email.trim().toLowerCase()) return deliveryPathFor(state, locale);
  if (state.next === 'login') return loginPathFor(deliveryPathFor(state, locale));
  return signupPathFor(state);
}
