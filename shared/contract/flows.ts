import { z } from 'zod';
import { CUSTOM_FIELD_TYPES, DeclaredFileSchema, FORM_OPTION_MAX } from './forms';
import { SUBMISSION_JSON_SCHEMA_ID, SUBMISSION_JSON_VERSION, SubmissionJsonHeadSchema } from './submission-json';

/**
 * Flows (issue 16 §3, DESIGN §9): a form may hand its submissions to a process service. Such a
 * form's delivery carries `submission.json` (the fields, machine-readable, schema below) and, with
 * a webhook URL, the server POSTs a signed hand-off to it through the job queue (retries with
 * backoff). The Flows page (ROLE_SECUFLOWS_ACCESS) lists the hand-offs. docs/flows.md documents
 * the JSON, the webhook body and how a receiver verifies the signature.
 *
 * | Call | Who | What |
 * |---|---|---|
 * | GET /forms/{formUuid}/process-service | who may edit the form (creator, editors, ROLE_ADMIN) | the form's process-service option |
 * | PUT /forms/{formUuid}/process-service | who may edit the form | on/off and webhook URL (https; public address unless allow-listed) |
 * | POST /forms/{formUuid}/process-service/secret | who may edit the form | a new shared secret, answered once (the old one stops signing) |
 * | GET /flows?cursor&q&limit | ROLE_SECUFLOWS_ACCESS | hand-offs, newest first, with their JSON |
 * | POST /flows/{handOffId}/retry | ROLE_SECUFLOWS_ACCESS | a failed webhook hand-off is queued again |
 */

export { FLOW_ROLES } from './flow-roles';

export { SUBMISSION_JSON_FILE, SUBMISSION_JSON_SCHEMA_ID, SUBMISSION_JSON_VERSION, SubmissionJsonHeadSchema, type SubmissionJsonHead } from './submission-json';

/** Headers of a webhook request (docs/flows.md, "Verifying a webhook"). */
export const FLOW_WEBHOOK_HEADERS = {
  /** `t=<unix ms>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` */
  signature: 'kuvert-signature',
  /** The hand-off's id: the same on every retry (receivers drop duplicates by it). */
  handOff: 'kuvert-hand-off',
  event: 'kuvert-event',
} as const;
export const FLOW_WEBHOOK_EVENT = 'form.submission';
/** The event (header and body) of the process-service tab's "Send test" (./flow-attempts.ts). */
export const FLOW_WEBHOOK_TEST_EVENT = 'form.test';

export const FLOW_WEBHOOK_URL_MAX = 2000;
export const FLOW_LIST_LIMIT_MAX = 100;

/** Hand-off states: `waiting` (draft not sent yet), `pending` (queued or retrying), `delivered`, `failed`, `noWebhook` (JSON only). */
export const HAND_OFF_STATES = ['waiting', 'pending', 'delivered', 'failed', 'noWebhook'] as const;
export type HandOffState = (typeof HAND_OFF_STATES)[number];

export const ProcessServiceInputSchema = z
  .object({
    enabled: z.boolean(),
    /** Empty: no webhook, the JSON is only attached to the delivery. */
    webhookUrl: z.string().trim().max(FLOW_WEBHOOK_URL_MAX).default(''),
  })
  .strict()
  .meta({ id: 'SaveProcessService' });
export type ProcessServiceInput = z.input<typeof ProcessServiceInputSchema>;

export const ProcessServiceSchema = z
  .object({
    enabled: z.boolean(),
    webhookUrl: z.string(),
    /** Whether a secret exists (it is shown once, when made). */
    secretSet: z.boolean(),
    secretCreatedAt: z.number().nullable(),
  })
  .meta({ id: 'ProcessService' });
export type ProcessService = z.infer<typeof ProcessServiceSchema>;

export const ProcessServiceSecretSchema = z
  .object({ secret: z.string(), secretCreatedAt: z.number() })
  .meta({ id: 'ProcessServiceSecret' });
export type ProcessServiceSecret = z.infer<typeof ProcessServiceSecretSchema>;

/** One field of the submission: its value as typed by the submitter (files: what was declared). */
export const SubmissionJsonFieldSchema = z
  .object({
    name: z.string(),
    type: z.enum(CUSTOM_FIELD_TYPES),
    /** text/radio/dropdown/date/email/userAttribute/signature/textTemplate: a string; checkbox: the chosen values; file: the files; not filled in: null. */
    value: z.union([z.string(), z.array(z.string().max(FORM_OPTION_MAX)), z.array(DeclaredFileSchema), z.null()]),
  })
  .meta({ id: 'SubmissionJsonField' });

/** `submission.json` (version 1). docs/flows.md lists every field with an example. */
export const SubmissionJsonSchema = z
  .object({
    schema: z.literal(SUBMISSION_JSON_SCHEMA_ID),
    version: z.literal(SUBMISSION_JSON_VERSION),
    form: SubmissionJsonHeadSchema.shape.form,
    submission: SubmissionJsonHeadSchema.shape.submission,
    fields: z.array(SubmissionJsonFieldSchema),
  })
  .meta({ id: 'SubmissionJson' });
export type SubmissionJson = z.infer<typeof SubmissionJsonSchema>;

/** A file of the delivery as the server knows it: name and stored size in bytes (levels 3/4: the encrypted size). */
export const FlowAttachmentSchema = z.object({ name: z.string(), size: z.number().int().nonnegative() }).meta({ id: 'FlowAttachment' });
export type FlowAttachment = z.infer<typeof FlowAttachmentSchema>;

/**
 * The webhook's body. Levels 3/4 (`encrypted: true`): `submission` is null (the server never has
 * the plaintext); `attachment` names the encrypted `submission.json` the submitter's browser added.
 */
export const FlowWebhookBodySchema = z
  .object({
    event: z.enum([FLOW_WEBHOOK_EVENT, FLOW_WEBHOOK_TEST_EVENT]),
    /** A test from the process-service tab: nothing was submitted (`form.test`, no submission). */
    test: z.boolean(),
    version: z.literal(SUBMISSION_JSON_VERSION),
    handOffId: z.string(),
    formUuid: z.string(),
    formName: z.string(),
    deliveryUuid: z.string(),
    securityLevel: z.number().int().min(1).max(4),
    /** ISO 8601 time the delivery was sent. */
    sentAt: z.string(),
    submission: SubmissionJsonSchema.nullable(),
    /** Levels 3/4: the values are end-to-end encrypted; `submission` is null, open the delivery. */
    encrypted: z.boolean(),
    /** ISO 8601 time the submission was started. */
    submittedAt: z.string(),
    /** The delivery's `submission.json`; null when it is not there (an encrypted submission whose browser sent none). */
    attachment: FlowAttachmentSchema.nullable(),
  })
  .meta({ id: 'FlowWebhookBody' });
export type FlowWebhookBody = z.infer<typeof FlowWebhookBodySchema>;

export const HandOffSchema = z
  .object({
    handOffId: z.string(),
    formUuid: z.string().nullable(),
    formName: z.string(),
    deliveryUuid: z.string().nullable(),
    securityLevel: z.number().int(),
    state: z.enum(HAND_OFF_STATES),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.number(),
    sentAt: z.number().nullable(),
    lastAttemptAt: z.number().nullable(),
    /** A pending hand-off: when the queue tries (again); null when none is waiting (delivered, failed, running now). */
    nextAttemptAt: z.number().nullable(),
    deliveredAt: z.number().nullable(),
    /** The JSON (levels 1–2); null at levels 3/4. */
    submission: SubmissionJsonSchema.nullable(),
    /** Levels 3/4: the JSON is only in the delivery, encrypted (the page says "open the delivery"). */
    encrypted: z.boolean(),
    /** The delivery's `submission.json` (name, stored size), once the delivery is sent. */
    attachment: FlowAttachmentSchema.nullable(),
  })
  .meta({ id: 'FlowHandOff' });
export type HandOff = z.infer<typeof HandOffSchema>;

export const FlowListQuerySchema = z
  .object({
    cursor: z.string().min(1).max(100).optional(),
    /** Matches the form name and the JSON text (field values), case-insensitive. */
    q: z.string().trim().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(FLOW_LIST_LIMIT_MAX).default(25),
  })
  .strict();

export const FlowListSchema = z
  .object({ items: z.array(HandOffSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'FlowList' });
export type FlowList = z.infer<typeof FlowListSchema>;

export const HandOffParamsSchema = z.object({ handOffId: z.string().max(64) }).strict();
