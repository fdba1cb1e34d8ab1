import { AUTH_ESCALATION_ENDPOINTS as E } from '@shared/contract/endpoints/auth-escalation';
import {
  type ChangePasswordBody,
  type OwnTotpConfirmBody,
  type OwnTotpRegistrationBody,
  type OwnTotpResetBody,
  type TotpRegistrationResponse,
} from '@shared/contract/auth-escalation';
import { call } from '../call';
import type { ApiClient } from '../client';

/** POST /user/totp/reset (signed in, password + current code): disables the user's own authentication app. */
export async function postTotpReset(client: ApiClient, body: OwnTotpResetBody): Promise<void> {
  await call(client, E.ownTotpReset, { body });
}

/** POST /user/totp/registration (signed in, password): a new secret with its QR code, pending until confirmed. */
export function postOwnTotpRegistration(client: ApiClient, body: OwnTotpRegistrationBody): Promise<TotpRegistrationResponse> {
  return call(client, E.ownTotpRegistration, { body });
}

/** POST /user/totp/confirm (signed in): a code of the app turns two-factor on. */
export async function postOwnTotpConfirm(client: ApiClient, body: OwnTotpConfirmBody): Promise<void> {
  await call(client, E.ownTotpConfirm, { body });
}

/** POST /user/password (signed in): changes the user's own password. */
export async function postChangePassword(client: ApiClient, body: ChangePasswordBody): Promise<void> {
  await call(client, E.ownPasswordChange, { body });
}
