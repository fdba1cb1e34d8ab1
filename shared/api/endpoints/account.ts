import {
  AUTH_ESCALATION_PATHS as PATHS,
  type ChangePasswordBody,
  type OwnTotpConfirmBody,
  type OwnTotpRegistrationBody,
  type OwnTotpResetBody,
  type TotpRegistrationResponse,
} from '@shared/contract/auth-escalation';
import type { ApiClient } from '../client';

/** POST /user/totp/reset (signed in, password + current code): disables the user's own authentication app. */
export async function postTotpReset(client: ApiClient, body: OwnTotpResetBody): Promise<void> {
  await client.post(PATHS.ownTotpReset, body);
}

/** POST /user/totp/registration (signed in, password): a new secret with its QR code, pending until confirmed. */
export function postOwnTotpRegistration(client: ApiClient, body: OwnTotpRegistrationBody): Promise<TotpRegistrationResponse> {
  return client.post<TotpRegistrationResponse>(PATHS.ownTotpRegistration, body);
}

/** POST /user/totp/confirm (signed in): a code of the app turns two-factor on. */
export async function postOwnTotpConfirm(client: ApiClient, body: OwnTotpConfirmBody): Promise<void> {
  await client.post(PATHS.ownTotpConfirm, body);
}

/** POST /user/password (signed in): changes the user's own password. */
export async function postChangePassword(client: ApiClient, body: ChangePasswordBody): Promise<void> {
  await client.post(PATHS.ownPasswordChange, body);
}
