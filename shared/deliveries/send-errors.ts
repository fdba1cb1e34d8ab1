import { ApiError } from '@shared/api/api-error';
import { CryptoError } from '@shared/crypto/errors';
import { problemFromValidation } from '@shared/rules/send-rule-errors';
import type { SendProblem } from '@shared/rules/send-rules';

/**
 * Backend error objects of a send (SPEC §8 classes, figures in `metadata`, server/README.md
 * "Deliveries") as typed errors the UI maps to its messages. A `ValidationException` with a
 * known `metadata.reason` also carries the matching client-side `SendProblem`.
 */

/** Figures the server sends with each class (server/README.md, error table). */
export interface SendErrorMetadata {
  deliveryWithoutFiles: { fileCount: number };
  fileNotAllowed: { name: string; extension: string; mimeType: string };
  globalQuotaReached: { spaceAvailable: number; spaceRequired: number };
  maxUploadSizeExceeded: { maxUploadSize: number; currentSize: number; requestedSize: number };
  maxBodyLength: { maxLength: number; length: number };
  maxSubjectLength: { maxLength: number; length: number };
  /** `reason: replyOnly`: a ROLE_SENDER_EXTERNAL account wrote to someone who never sent it a delivery. */
  recipientNotAllowed: { recipients: string[]; reason?: string };
  /** Unlicensed sender: the unlicensed or unregistered recipients. */
  senderNotLicensed: { recipients: string[] };
  /** Inviting needs ROLE_SHARES_CAN_INVITE: the unregistered recipients. */
  inviteUserToShare: { recipients: string[] };
}

export const SEND_ERROR_CODES = [
  'deliveryWithoutFiles',
  'fileNotAllowed',
  'globalQuotaReached',
  'submitQuotaReached',
  'maxUploadSizeExceeded',
  'transferQuotaExceeded',
  'maxBodyLength',
  'maxSubjectLength',
  'recipientNotAllowed',
  'senderNotLicensed',
  'inviteUserToShare',
  'accessDescriptorNotFound',
  'validation',
  'conflict',
  'notFound',
  'accessDenied',
  'authenticationRequired',
  /** Levels 3/4: a recipient's key changed since it was pinned and the user did not confirm the new one. */
  'keyChanged',
  /** Levels 3/4: encrypting, wrapping or signing failed in the crypto Worker. */
  'encryption',
  /** No answer (network down, connection reset); worth retrying later — the upload resumes. */
  'network',
  /** The caller aborted (AbortSignal). */
  'cancelled',
  /** Anything else; the UI shows the default 'Error occurred'. */
  'unknown',
] as const;
export type SendErrorCode = (typeof SEND_ERROR_CODES)[number];

interface SendErrorBase<C extends SendErrorCode> {
  code: C;
  /** The §8 class the server named, when there was an answer. */
  errorClass: string | undefined;
  status: number | undefined;
  message: string;
  metadata: C extends keyof SendErrorMetadata ? SendErrorMetadata[C] : Record<string, unknown>;
  /** ValidationException with a known reason: the same problem the form would show. */
  problem?: SendProblem;
  /** The file the failing call was about, when there was one. */
  fileName?: string;
}
export type SendError = { [C in SendErrorCode]: SendErrorBase<C> }[SendErrorCode];

const CLASS_TO_CODE: Record<string, SendErrorCode> = {
  DeliveryWithoutFilesNotAllowedException: 'deliveryWithoutFiles',
  FileNotAllowedException: 'fileNotAllowed',
  GlobalQuotaReachedException: 'globalQuotaReached',
  SubmitQuotaReachedException: 'submitQuotaReached',
  MaxUploadSizeExceededException: 'maxUploadSizeExceeded',
  TransferQuotaExceededException: 'transferQuotaExceeded',
  MaxBodyLengthException: 'maxBodyLength',
  MaxSubjectLengthException: 'maxSubjectLength',
  RecipientNotAllowedException: 'recipientNotAllowed',
  SenderNotLicensedException: 'senderNotLicensed',
  InviteUserToShareException: 'inviteUserToShare',
  AccessDescriptorNotFoundException: 'accessDescriptorNotFound',
  ValidationException: 'validation',
  ConflictException: 'conflict',
  NotFoundException: 'notFound',
  AccessDeniedException: 'accessDenied',
  AuthenticationRequiredException: 'authenticationRequired',
};

const STATUS_TO_CODE: Record<number, SendErrorCode> = { 401: 'authenticationRequired', 403: 'accessDenied', 404: 'notFound', 409: 'conflict' };

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** Any failure of a send call → a SendError (never throws). */
export function toSendError(error: unknown, context: { fileName?: string } = {}): SendError {
  const extra = context.fileName === undefined ? {} : { fileName: context.fileName };
  if (error instanceof DeliverySendError) return error.detail;
  if (error instanceof ApiError) {
    const errorClass = error.errorClass;
    const code = (errorClass && CLASS_TO_CODE[errorClass]) || STATUS_TO_CODE[error.status] || 'unknown';
    const metadata = (error.error?.metadata ?? {}) as Record<string, unknown>;
    // The rule table (send-rule-errors.ts) turns a ValidationException back into its form problem.
    const problem = code === 'validation' ? problemFromValidation(metadata) : undefined;
    return { code, errorClass, status: error.status, message: error.message, metadata, ...(problem ? { problem } : {}), ...extra } as SendError;
  }
  const cryptoCode = (error as { code?: unknown } | null)?.code;
  // shared/crypto errors keep their `code` across the Worker boundary (the proxy rebuilds the class).
  // Not by `error.name`: minified bundles rename the classes, and `new.target.name` with them.
  if (error instanceof CryptoError && typeof cryptoCode === 'string') {
    const code = cryptoCode === 'contact-key-changed' ? 'keyChanged' : 'encryption';
    return { code, errorClass: undefined, status: undefined, message: error.message, metadata: { cryptoCode }, ...extra };
  }
  if (isAbort(error)) return { code: 'cancelled', errorClass: undefined, status: undefined, message: 'Cancelled', metadata: {}, ...extra };
  const message = error instanceof Error ? error.message : String(error);
  // fetch rejects with a TypeError when there is no answer at all.
  const code = error instanceof TypeError ? 'network' : 'unknown';
  return { code, errorClass: undefined, status: undefined, message, metadata: {}, ...extra };
}

/** A SendError as something to throw (the engine's internal failures carry it). */
export class DeliverySendError extends Error {
  override readonly name = 'DeliverySendError';
  constructor(readonly detail: SendError) {
    super(detail.message);
  }
}
