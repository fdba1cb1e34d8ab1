import { z } from 'zod';

/** Backend error object (SPEC §3): every non-2xx answer of /api/2 carries it as the body. */
export const BackendErrorSchema = z
  .object({
    uuid: z.string(),
    requestUri: z.string(),
    /** Exception class name, e.g. `ValidationException` (SPEC §8). */
    error: z.string(),
    message: z.string(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'BackendError' });
export type BackendError = z.infer<typeof BackendErrorSchema>;

/** Error classes the server names in `error` (SPEC §8 plus the generic ones we need). */
export const ERROR_CLASSES = [
  // generic
  'ValidationException',
  'AuthenticationRequiredException',
  'AccessDeniedException',
  'NotFoundException',
  'CsrfTokenException',
  'RateLimitExceededException',
  'PayloadTooLargeException',
  'UnsupportedMediaTypeException',
  'ConflictException',
  'InternalServerException',
  /** 503: a part the server needs is away for now (the database); the answer carries Retry-After. */
  'ServiceUnavailableException',
  // deliveries (SPEC §8)
  'DeliveryWithoutFilesNotAllowedException',
  'FileNotAllowedException',
  'GlobalQuotaReachedException',
  'SubmitQuotaReachedException',
  'MaxUploadSizeExceededException',
  'TransferQuotaExceededException',
  'MaxBodyLengthException',
  'MaxSubjectLengthException',
  'RecipientNotAllowedException',
  'SenderNotLicensedException',
  'InviteUserToShareException',
  'AccessDescriptorNotFoundException',
  // licence caps (SPEC §6, §8 "license limit reached"; shared/contract/licence.ts)
  'LicenseLimitExceededException',
  // Submit box (SPEC §8; shared/contract/submit-box.ts SUBMIT_BOX_ERRORS).
  'SubmitBoxNotFoundException',
  'SubmitBoxNotEnabledException',
  'SubmitBoxGloballyDisabledException',
  'SubmitTicketUsedException',
  // Issue 33 §3: a guest ticket the submit-box owner revoked (shared/contract/submit-box-guests.ts).
  'SubmitTicketRevokedException',
  'SubmitBoxNoAllowedSecurityLevelException',
  'SubmitBoxRecipientWithoutPassphraseException',
  'SubmitBoxEncryptedSubmitUnavailableException',
  'SubmitTicketCreationException',
  // Web forms (SPEC §8; shared/contract/forms.ts FORM_ERRORS).
  'FormNotFoundException',
  'FormInactiveException',
  'FormInvalidRecipientConfigurationException',
  'FormDuplicateNameException',
  'FormDuplicateUrlException',
  'WrongCaptchaException',
  'FormFieldValidationException',
  // Web forms at levels 3/4 (shared/contract/form-e2e.ts FORM_E2E_ERRORS).
  'FormRecipientWithoutPassphraseException',
  'FormPassphraseNotSetException',
  // Data-room invitations (SPEC §8 "invitation expired or used"; shared/contract/room-invitations.ts).
  'InvitationExpiredException',
  // Trust networks: a partner call refused (shared/contract/trust-networks.ts TRUST_SIGNATURE_ERROR).
  'TrustSignatureException',
  // Trust networks: a partner refused a delivery (shared/contract/trust-networks.ts TRUST_DELIVERY_ERROR).
  'TrustDeliveryRefusedException',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/** Response header with the error message when the body is not JSON (SPEC §8). */
export const API_ERROR_HEADER = 'api-error';

/**
 * Login authorization codes (SPEC §8). The screen reaction to each is decided in the web
 * client's auth feature.
 */
export const AUTHORIZATION_ERROR = {
  WRONG_CREDENTIALS: 1,
  CAPTCHA_REQUIRED: 2,
  TOTP_REGISTRATION_REQUIRED: 3,
  TOTP_AUTHORIZATION_FAILED: 4,
  DELIVERY_REGISTRATION_REQUIRED: 5,
  ACCOUNT_VERIFICATION_REQUIRED: 6,
  WRONG_ACCOUNT_VERIFICATION_CODE: 7,
  USER_DISABLED: 8,
  LOGIN_DISCLAIMER_REQUIRED: 9,
  DELIVERY_SIGNUP_REQUIRED: 10,
  USER_ALREADY_REGISTERED: 40,
} as const;
export type AuthorizationErrorCode = (typeof AUTHORIZATION_ERROR)[keyof typeof AUTHORIZATION_ERROR];

/**
 * One entry of the authorization error list (SPEC §3). Besides the code we add what the
 * next screen needs (e.g. a captcha id, the masked address a verification code went to).
 */
export const AuthorizationErrorEntrySchema = z
  .object({
    authorizationError: z.number().int(),
    captchaId: z.string().optional(),
    email: z.string().optional(),
    message: z.string().optional(),
  })
  .meta({ id: 'AuthorizationErrorEntry' });
export type AuthorizationErrorEntry = z.infer<typeof AuthorizationErrorEntrySchema>;

/** Response header holding the JSON list of AuthorizationErrorEntry on a failed login (SPEC §3, §8). */
export const AUTHORIZATION_ERRORS_HEADER = 'authorization-errors';
