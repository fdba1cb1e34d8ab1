import { DELIVERY_ENDPOINTS } from '@shared/contract/endpoints/deliveries';
import { e2ePlaintextSize } from '@shared/contract/deliveries';
import { FORM_ERRORS, type CustomField, type DeclaredFile, type FieldValue } from '@shared/contract/forms';
import { isE2eLevel } from '@shared/contract/security-levels';
import { isPngDataUrl, signatureFile, uploadedFileProblem } from '@shared/rules/form-rules';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { rateLimitExceeded } from '../core/http-error';
import { ACCESS_PLUGIN } from '../core/route-plugin';
import { deleteDelivery } from '../deliveries/detail';
import { RATE_LIMIT_BUCKETS } from '../security/rate-limiter';
import { fieldsOf, formError } from './forms';

/**
 * Public submissions, hardened (issue 16 §2):
 * - a rate limit per client address and per form, counted in the database (every server of a
 *   cluster shares it): beyond it 429 `RateLimitExceededException` with `Retry-After`, before
 *   anything is stored;
 * - the files a submission declared are kept (`form_submission_files`, migration 0036) and the
 *   upload calls of its limited session are checked again against them and the field's current
 *   limits — at file create (name and size as declared, size and type within the field's) and
 *   at commit (the field's limits once more: an administrator may have changed them). A refused
 *   upload cancels the whole submission: the draft is deleted with every byte it had and the
 *   session ends, so nothing half-stored is left and nobody is mailed.
 */

/** Submissions one client address may start in the window: a person filling forms, not a script. */
export const FORM_SUBMIT_LIMIT_PER_IP = 20;
/** Submissions one form takes in the window from everyone together (a flood from many addresses). */
export const FORM_SUBMIT_LIMIT_PER_FORM = 300;
export const FORM_SUBMIT_LIMIT_WINDOW_MS = 10 * 60 * 1000;

export interface FormSubmissionFilesTable {
  session_id: string;
  field_name: string;
  name: string;
  size: number;
  mime_type: string;
  created_at: number;
}

declare module '../db/schema' {
  interface Database {
    form_submission_files: FormSubmissionFilesTable;
  }
}

/** Counts one submission for the client address and the form; refused → 429 (nothing stored yet). */
export async function limitSubmissions(app: FastifyInstance, ip: string, formUuid: string): Promise<void> {
  const window = (limit: number) => ({ limit, windowMs: FORM_SUBMIT_LIMIT_WINDOW_MS });
  const byIp = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.formSubmitIp, ip, window(FORM_SUBMIT_LIMIT_PER_IP));
  if (!byIp.allowed) throw rateLimitExceeded(byIp.retryAfterMs);
  const byForm = await app.rateLimiter.hit(RATE_LIMIT_BUCKETS.formSubmitForm, formUuid, window(FORM_SUBMIT_LIMIT_PER_FORM));
  if (!byForm.allowed) throw rateLimitExceeded(byForm.retryAfterMs);
}

const isFileList = (value: FieldValue | undefined): value is DeclaredFile[] => Array.isArray(value) && value.every((v) => typeof v === 'object');

/** Keeps the files the (already checked) values declare, for the upload checks of the submission's session. */
export async function recordDeclaredFiles(app: FastifyInstance, sessionId: string, fields: readonly CustomField[], values: Record<string, FieldValue>): Promise<void> {
  const now = Date.now();
  const row = (field: CustomField, file: DeclaredFile) => ({ session_id: sessionId, field_name: field.name, name: file.name, size: file.size, mime_type: file.type, created_at: now });
  const rows = fields.flatMap((field) => {
    const value = values[field.name];
    if (field.type === 'file') return isFileList(value) ? value.map((file) => row(field, file)) : [];
    // A signature is attached as its PNG (the public page uploads it with the files).
    if (field.type === 'signature' && typeof value === 'string' && isPngDataUrl(value)) return [row(field, signatureFile(field.name, value))];
    return [];
  });
  if (rows.length > 0) await app.db.insertInto('form_submission_files').values(rows).execute();
}

interface SubmissionOfSession {
  formId: number;
  declared: FormSubmissionFilesTable[];
}

/**
 * The form submission of a submit session, or undefined when there is nothing to check: a submit
 * box's session, or a level 3/4 submission — its values and file names are ciphertext the server
 * never sees, so the browser checks them against the fields (forms/e2e.ts, server/README).
 */
async function submissionOf(app: FastifyInstance, sessionId: string): Promise<SubmissionOfSession | undefined> {
  const submission = await app.db
    .selectFrom('form_submissions')
    .innerJoin('deliveries', 'deliveries.id', 'form_submissions.delivery_id')
    .select(['form_submissions.form_id', 'deliveries.security_level'])
    .where('form_submissions.session_id', '=', sessionId)
    .executeTakeFirst();
  if (!submission || submission.form_id === null || isE2eLevel(submission.security_level)) return undefined;
  const declared = await app.db.selectFrom('form_submission_files').selectAll().where('session_id', '=', sessionId).execute();
  return { formId: submission.form_id, declared };
}

/** Ends the submission: its draft goes with every byte, its session with it; then the §8 answer. */
async function refuse(app: FastifyInstance, request: FastifyRequest, deliveryUuid: string, field: string, reason: string): Promise<never> {
  const { user, session } = request;
  if (user && session) {
    await deleteDelivery({ app, user, log: request.log }, deliveryUuid);
    await app.db.deleteFrom('sessions').where('id', '=', session.id).execute();
    await app.db.deleteFrom('form_submission_files').where('session_id', '=', session.id).execute();
  }
  throw formError(400, FORM_ERRORS.fieldInvalid, 'Some fields are not filled in correctly', { problems: [{ field, reason }] });
}

type AddFileBody = { name: string; size: number; mimeType: string; encryption?: { recordSize: number } };

async function checkCreate(app: FastifyInstance, request: FastifyRequest, submission: SubmissionOfSession): Promise<void> {
  const { deliveryUuid } = request.params as { deliveryUuid: string };
  const body = request.body as AddFileBody;
  const size = body.encryption ? e2ePlaintextSize(body.size, body.encryption.recordSize) : body.size;
  const declared = submission.declared.find((d) => d.name === body.name && Number(d.size) === size);
  if (!declared) return refuse(app, request, deliveryUuid, body.name, 'undeclaredFile');
  const field = (await fieldsOf(app, submission.formId)).find((f) => f.name === declared.field_name);
  const reason = field ? uploadedFileProblem(field, { name: body.name, size: size ?? 0, type: body.mimeType }) : 'unknownField';
  if (reason) return refuse(app, request, deliveryUuid, declared.field_name, reason);
}

async function checkCommit(app: FastifyInstance, request: FastifyRequest, submission: SubmissionOfSession): Promise<void> {
  const { deliveryUuid, fileId } = request.params as { deliveryUuid: string; fileId: string };
  const file = await app.db
    .selectFrom('delivery_files as f')
    .innerJoin('deliveries as d', 'd.id', 'f.delivery_id')
    .select(['f.name', 'f.mime_type'])
    .where('d.uuid', '=', deliveryUuid)
    .where('f.uuid', '=', fileId)
    .executeTakeFirst();
  if (!file) return; // the commit answers its own 404
  const declared = submission.declared.find((d) => d.name === file.name);
  if (!declared) return refuse(app, request, deliveryUuid, file.name, 'undeclaredFile');
  const field = (await fieldsOf(app, submission.formId)).find((f) => f.name === declared.field_name);
  const reason = field ? uploadedFileProblem(field, { name: file.name, size: Number(declared.size), type: file.mime_type }) : 'unknownField';
  if (reason) return refuse(app, request, deliveryUuid, declared.field_name, reason);
}

/** A form submission's file calls (add, commit) checked against what the submission declared. */
async function checkSubmissionUpload(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const endpoint = request.routeOptions.config.endpoint;
  if (request.session?.kind !== 'submit' || (endpoint !== DELIVERY_ENDPOINTS.addFile && endpoint !== DELIVERY_ENDPOINTS.commitFile)) return;
  const submission = await submissionOf(app, request.session.id);
  if (!submission) return; // a submit-box ticket's session
  if (endpoint === DELIVERY_ENDPOINTS.addFile) await checkCreate(app, request, submission);
  else await checkCommit(app, request, submission);
}

/** Not encapsulated: the hook must see the delivery routes the submission's session calls. */
export const formUploadChecks = fp(
  async (app: FastifyInstance) => {
    // Callback style: a request without a submit session (nearly all) passes without a promise and a
    // microtask turn, and without building routeOptions (issue 35 §4).
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.session?.kind !== 'submit') return done();
      checkSubmissionUpload(app, request).then(() => done(), done);
    });
  },
  { name: 'kuvert-form-upload-checks', dependencies: [ACCESS_PLUGIN], fastify: '5.x' },
);
