import type { BasicCredentials } from '@shared/api/client';
import { postVerificationResend } from '@shared/api/endpoints/pre-login';
import { apiClient } from '@web/lib/api-client';

/** POST /auth/verification/resend (a user action, so no hook state beyond the caller's). */
export const resendVerificationCode = (credentials: BasicCredentials, captcha?: { j_captcha: string; j_captcha_id: string } | null) =>
  postVerificationResend(apiClient, credentials, captcha);
