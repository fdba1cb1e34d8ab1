import { getPasswordResetToken, postPasswordResetConfirm, postPasswordResetRequest } from '@shared/api/endpoints/pre-login';
import type { PasswordResetConfirmBody, PasswordResetRequestBody } from '@shared/contract/auth-escalation';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

export const requestPasswordReset = (body: PasswordResetRequestBody) => postPasswordResetRequest(apiClient, body);
export const confirmPasswordReset = (body: PasswordResetConfirmBody) => postPasswordResetConfirm(apiClient, body);
export const checkPasswordResetToken = (token: string) => getPasswordResetToken(apiClient, token);

/** GET /auth/password-reset/{token}: data true when valid; error when unknown, used or expired. */
export const usePasswordResetToken = (token: string | null) =>
  useSWR(token ? ['auth/password-reset', token] : null, async ([, value]) => {
    await checkPasswordResetToken(value);
    return true;
  }, { revalidateOnFocus: false, shouldRetryOnError: false });
