import { AUTH_ESCALATION_PATHS as PATHS, type ChangePasswordBody } from '@shared/contract/auth-escalation';
import type { ApiClient } from '../client';

/** POST /user/totp/reset (signed in): disables the user's own authentication app. */
export async function postTotpReset(client: ApiClient): Promise<void> {
  await client.post(PATHS.ownTotpReset);
}

/** POST /user/password (signed in): changes the user's own password. */
export async function postChangePassword(client: ApiClient, body: ChangePasswordBody): Promise<void> {
  await client.post(PATHS.ownPasswordChange, body);
}
