import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import type { Language } from '@shared/contract/constants';
import type { UpdateLoggedInUserBody } from '@shared/contract/user';
import { call } from '../call';
import type { ApiClient } from '../client';

/** POST /user/updateLoggedInUser persists the language (SPEC §7). */
export async function postUpdateLoggedInUser(client: ApiClient, language: Language): Promise<void> {
  const body: UpdateLoggedInUserBody = { user: { language } };
  await call(client, ACCOUNT_ENDPOINTS.updateLoggedInUser, { body });
}
