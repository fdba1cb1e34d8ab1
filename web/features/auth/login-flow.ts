import type { BasicCredentials } from '@shared/api/client';
import { isApiError } from '@shared/api/api-error';
import { LoginAuthorizationError } from '@shared/auth/authorization-errors';
import { AUTHORIZATION_ERROR, type AuthorizationErrorEntry } from '@shared/contract/errors';
import { ROUTES } from '@web/lib/routes';

/** Messages of the sign-in screens (SPEC §8), keys under `auth:errors.*`. */
export type AuthMessage =
  | 'invalidCredentials'
  | 'wrongCaptcha'
  | 'invalidAuthCode'
  | 'invalidVerificationCode'
  | 'resendError'
  | 'ssoFailed'
  | 'passwordResetRateLimit'
  | 'signInRateLimit'
  | 'passwordSubmitError'
  | 'insufficientRights'
  | 'userDisabled'
  | 'generalError';

export type AuthStep =
  | typeof ROUTES.login
  | typeof ROUTES.captcha
  | typeof ROUTES.totpAuthentication
  | typeof ROUTES.totpRegistration
  | typeof ROUTES.accountVerification
  | typeof ROUTES.loginDisclaimer;

export interface LoginOutcome {
  step: AuthStep;
  message: AuthMessage | null;
  entry: AuthorizationErrorEntry | null;
}

/** Which code wins when the server sends several: the one whose screen must come first. */
const PRIORITY: readonly number[] = [
  AUTHORIZATION_ERROR.USER_DISABLED,
  AUTHORIZATION_ERROR.CAPTCHA_REQUIRED,
  AUTHORIZATION_ERROR.WRONG_CREDENTIALS,
  AUTHORIZATION_ERROR.WRONG_ACCOUNT_VERIFICATION_CODE,
  AUTHORIZATION_ERROR.ACCOUNT_VERIFICATION_REQUIRED,
  AUTHORIZATION_ERROR.TOTP_REGISTRATION_REQUIRED,
  AUTHORIZATION_ERROR.TOTP_AUTHORIZATION_FAILED,
  AUTHORIZATION_ERROR.LOGIN_DISCLAIMER_REQUIRED,
];

/**
 * The screen reaction to a failed login (SPEC §8 leaves it to us): each authorization code
 * leads to its screen, with a message when the user's answer was wrong.
 */
export function resolveLoginOutcome(error: unknown, context: { sentCaptcha: boolean; sentAuthCode: boolean }): LoginOutcome {
  if (error instanceof LoginAuthorizationError) {
    const entry =
      PRIORITY.map((code) => error.entries.find((candidate) => candidate.authorizationError === code)).find(Boolean) ??
      error.entries[0] ??
      null;
    switch (entry?.authorizationError) {
      case AUTHORIZATION_ERROR.WRONG_CREDENTIALS:
        return { step: ROUTES.login, message: 'invalidCredentials', entry };
      case AUTHORIZATION_ERROR.CAPTCHA_REQUIRED:
        return { step: ROUTES.captcha, message: context.sentCaptcha ? 'wrongCaptcha' : null, entry };
      case AUTHORIZATION_ERROR.TOTP_REGISTRATION_REQUIRED:
        return { step: ROUTES.totpRegistration, message: null, entry };
      case AUTHORIZATION_ERROR.TOTP_AUTHORIZATION_FAILED: {
        const wrong = context.sentAuthCode && entry.message !== 'required';
        return { step: ROUTES.totpAuthentication, message: wrong ? 'invalidAuthCode' : null, entry };
      }
      case AUTHORIZATION_ERROR.ACCOUNT_VERIFICATION_REQUIRED:
        return { step: ROUTES.accountVerification, message: null, entry };
      case AUTHORIZATION_ERROR.WRONG_ACCOUNT_VERIFICATION_CODE:
        return { step: ROUTES.accountVerification, message: 'invalidVerificationCode', entry };
      case AUTHORIZATION_ERROR.USER_DISABLED:
        return { step: ROUTES.login, message: 'userDisabled', entry };
      case AUTHORIZATION_ERROR.LOGIN_DISCLAIMER_REQUIRED:
        return { step: ROUTES.loginDisclaimer, message: null, entry };
      default:
        return { step: ROUTES.login, message: 'generalError', entry };
    }
  }
  // Sign-in throttling (429 + Retry-After: the account's delay or the address's limit): back to the start, told to wait.
  if (isApiError(error) && error.status === 429) return { step: ROUTES.login, message: 'signInRateLimit', entry: null };
  if (isApiError(error) && error.status === 403) return { step: ROUTES.login, message: 'insufficientRights', entry: null };
  if (isApiError(error) && error.status === 401) return { step: ROUTES.login, message: 'invalidCredentials', entry: null };
  return { step: ROUTES.login, message: 'generalError', entry: null };
}

export interface LoginFlowState {
  /** Typed credentials, kept in memory only (never storage) while escalations run. */
  credentials: BasicCredentials | null;
  disclaimerAccepted: boolean;
  /**
   * The last accepted authentication-app code. Later steps (the disclaimer comes after the
   * code on the server) resend it so the user is not asked twice; if the server refuses the
   * reuse, the code screen simply asks for the next one.
   */
  authAppCode: string | null;
  /**
   * The email verification code typed but not yet checked: after 3 failed sign-ins every
   * attempt needs a fresh captcha, so the server may ask for one before it looks at the code.
   * It then travels with the captcha answer (otherwise verification and captcha would take
   * turns forever). A refused code is dropped.
   */
  verificationCode: string | null;
  /**
   * Set while the disclaimer is shown ahead of a two-factor step: the server checks the code
   * before the disclaimer and refuses a code twice, so asking for the disclaimer first spares
   * the user a second code. Accepting it then goes on to this step.
   */
  stepAfterDisclaimer: AuthStep | null;
  /**
   * Set when a pre-login call with the password (authentication app registration) was refused
   * for want of a captcha: the captcha screen then answers for that step instead of signing in.
   */
  captchaFor: AuthStep | null;
  /** The answered captcha waiting for that call (the server accepts it once). */
  captchaAnswer: { j_captcha: string; j_captcha_id: string } | null;
  /** Where to go after success (validated continue parameter). */
  continueTo: string | null;
  /** The entry that brought the user to the current step (masked email, captcha id…). */
  entry: AuthorizationErrorEntry | null;
  /** Message to show on arrival at the next step. */
  message: AuthMessage | null;
  /**
   * Set when the sign-in succeeded (credentials already forgotten): where the browser is going.
   * The escalation screen still renders while that target loads and sends itself there too,
   * rather than to the login page (which would drop the continue target).
   */
  completedTo: string | null;
}

const initialState = (): LoginFlowState => ({ credentials: null, disclaimerAccepted: false, authAppCode: null, verificationCode: null, stepAfterDisclaimer: null, captchaFor: null, captchaAnswer: null, continueTo: null, entry: null, message: null, completedTo: null });

let flow: LoginFlowState = initialState();

/** Module-level memory of the running sign-in; a page reload forgets it on purpose. */
export const loginFlow = {
  get: (): LoginFlowState => flow,
  update(patch: Partial<LoginFlowState>): void {
    flow = { ...flow, ...patch };
  },
  /** Takes the message once (so it is not shown again after another navigation). */
  takeMessage(): AuthMessage | null {
    const message = flow.message;
    flow = { ...flow, message: null };
    return message;
  },
  reset(): void {
    flow = initialState();
  },
  /** Signed in: forget the credentials, remember where the browser goes. */
  complete(target: string): void {
    flow = { ...initialState(), completedTo: target };
  },
};
