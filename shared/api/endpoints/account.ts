import type { ApiClient } from '../client';

/** POST /user/totp/reset (signed in): disables the user's own authentication app. */
export async function postTotpReset(client: ApiClient): Promise<void> {
  await client.post('/user/totp/reset');
}

/** POST /user/password (signed in): changes the user's own password. */
export async function postChangePassword(client: ApiClient, body: { currentPassword: string; newPassword: string }): Promise<void> {
  await client.post('/user/password', body);
}
