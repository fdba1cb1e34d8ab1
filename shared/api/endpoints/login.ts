import { ACCOUNT_ENDPOINTS } from '@shared/contract/endpoints/account';
import { ADDIN_CLIENT_HEADER, ADDIN_CLIENT_VALUE, ANTI_CSRF_HEADER, type LoginQuery } from '@shared/contract/auth';
import type { User } from '@shared/contract/user';
import { callForResponse } from '../call';
import type { ApiClient, BasicCredentials } from '../client';

export interface LoginResult {
  user: User;
  antiCsrfToken: string | null;
  /** Only for add-in sign-ins (`options.addin`): the bearer session token. Secret. */
  sessionToken?: string;
}

/** Removes all whitespace from a one-time code, as SPEC §7 asks for j_auth_app_code. */
export function normalizeOneTimeCode(code: string): string {
  return code.replace(/\s+/g, '');
}

/** POST /auth with Basic credentials and the escalation answers in the query (SPEC §7). */
export async function postLogin(
  client: ApiClient,
  credentials: BasicCredentials,
  query: LoginQuery = {},
  options: { addin?: boolean } = {},
): Promise<LoginResult> {
  const cleaned: LoginQuery = { ...query };
  if (cleaned.j_auth_app_code !== undefined) cleaned.j_auth_app_code = normalizeOneTimeCode(cleaned.j_auth_app_code);
  if (cleaned.j_verification_code !== undefined) cleaned.j_verification_code = normalizeOneTimeCode(cleaned.j_verification_code);
  const response = await callForResponse(client, ACCOUNT_ENDPOINTS.signIn, { query: cleaned }, {
    basicAuth: credentials,
    // The add-in asks for a bearer token instead of a cookie (DESIGN §2).
    headers: { 'Content-Type': 'application/json', ...(options.addin ? { [ADDIN_CLIENT_HEADER]: ADDIN_CLIENT_VALUE } : {}) },
  });
  const { user, sessionToken } = response.data.data;
  return { user, antiCsrfToken: response.headers.get(ANTI_CSRF_HEADER), ...(sessionToken ? { sessionToken } : {}) };
}
