import { randomUUID } from 'node:crypto';
import { SUBMISSION_JSON_FILE, SubmissionJsonSchema, type FlowAttachment, type FlowList, type HandOff, type HandOffState, type SubmissionJsonHead } from '@shared/contract/flows';
import { isE2eLevel, isSecurityLevel, securityLevelNumber } from '@shared/contract/security-levels';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { badRequest, conflict, notFound } from '../core/http-error';
import type { RequestContext } from '../core/request-context';
import type { Database } from '../db/schema';
import type { DeliveryRow } from '../deliveries/records';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { enqueueJob } from '../jobs/job-queue';
import { removeFile } from '../deliveries/parts';
import { attachSubmissionJson, submissionJson, submissionJsonHead, type SubmissionFacts } from './flow-json';
import { formFlowOf } from './flow-settings';
import type { FlowHandOffsTable } from './flow-tables';

export const FLOW_WEBHOOK_JOB = 'flow-webhook';
export interface FlowWebhookPayload {
  handOffId: string;
}

type HandOffRow = Selectable<FlowHandOffsTable>;

/** The stored level (written from a form's checked level); a corrupt value must not pass as "not encrypted". */
function storedLevel(stored: number): SecurityLevel {
  if (!isSecurityLevel(stored)) throw new Error(`hand-off: stored level ${stored} unknown`);
  return stored;
}
/** The stored level as its number 1–4. */
export const levelNumberOf = (stored: number): 1 | 2 | 3 | 4 => securityLevelNumber(storedLevel(stored));
/** Levels 3/4: the server has no JSON, only the encrypted file in the delivery. */
export const isEncryptedHandOff = (stored: number): boolean => isE2eLevel(storedLevel(stored));

/**
 * A submission of a form with the process service on: a hand-off row with the JSON (levels 1–2)
 * waits for the delivery to be sent; the file itself is attached at the send (`attachBeforeSend`),
 * because the upload engine drops every draft file it was not given to upload. Levels 3/4: the row
 * keeps no JSON, and the answer is the head of submission.json for the submitter's browser, which
 * adds the values and uploads it encrypted (null: no process service, or levels 1/2).
 */
export async function startHandOff(app: FastifyInstance, facts: SubmissionFacts): Promise<SubmissionJsonHead | null> {
  const flow = await formFlowOf(app.db, facts.form.id);
  if (flow?.enabled !== 1) return null;
  const encrypted = isE2eLevel(facts.level);
  const json = encrypted ? null : submissionJson(facts);
  const text = json === null ? null : JSON.stringify(json);
  await app.db
    .insertInto('flow_hand_offs')
    .values({
      uuid: randomUUID(),
      form_id: facts.form.id,
      form_name: facts.form.name,
      delivery_id: facts.draft.id,
      delivery_uuid: facts.draft.uuid,
      security_level: facts.level,
      state: 'waiting' satisfies HandOffState,
      attempts: 0,
      last_error: null,
      submission: text,
      file_uuid: null,
      search_text: `${facts.form.name}\n${text ?? ''}`.toLowerCase(),
      // The submission's start, the same instant as submission.json's `submittedAt`.
      created_at: Number(facts.draft.created_at),
      sent_at: null,
      last_attempt_at: null,
      delivered_at: null,
    })
    .execute();
  return encrypted ? submissionJsonHead(facts) : null;
}

/**
 * Before a form delivery's send checks: `submission.json` into the draft as the sender, through
 * the delivery's own file calls (so it is scanned, counted and downloaded like any other file).
 * Once per hand-off: a second send attempt finds the committed file; a half-attached one is
 * replaced. A submitter's own file of that name makes the attach fail with the duplicate-name 400.
 */
export async function attachBeforeSend(ctx: RequestContext, delivery: DeliveryRow): Promise<void> {
  const { db } = ctx.app;
  const handOff = await db.selectFrom('flow_hand_offs').selectAll().where('delivery_id', '=', delivery.id).where('state', '=', 'waiting').executeTakeFirst();
  if (!handOff || handOff.submission === null) return;
  if (handOff.file_uuid !== null) {
    const file = await db.selectFrom('delivery_files').select('status').where('uuid', '=', handOff.file_uuid).executeTakeFirst();
    if (file?.status === 'committed') return;
    if (file) await removeFile(ctx, delivery.uuid, handOff.file_uuid);
  }
  const fileUuid = await attachSubmissionJson(ctx, delivery.uuid, SubmissionJsonSchema.parse(JSON.parse(handOff.submission)), (uuid) =>
    db.updateTable('flow_hand_offs').set({ file_uuid: uuid }).where('id', '=', handOff.id).execute().then(() => undefined),
  );
  ctx.log.debug({ deliveryUuid: delivery.uuid, fileUuid }, 'submission.json attached');
}

/**
 * Runs inside the send transaction of every delivery (deliveries/sending.ts): a waiting hand-off of
 * this delivery becomes `pending` with its webhook job queued in the same transaction (so the job
 * exists exactly when the delivery is sent), or `noWebhook` when the form has no webhook.
 */
export async function handOffOnSent(trx: Transaction<Database>, delivery: DeliveryRow): Promise<void> {
  const handOff = await trx.selectFrom('flow_hand_offs').selectAll().where('delivery_id', '=', delivery.id).where('state', '=', 'waiting').executeTakeFirst();
  if (!handOff) return;
  const flow = handOff.form_id === null ? undefined : await formFlowOf(trx, handOff.form_id);
  const webhook = flow?.enabled === 1 && flow.webhook_url !== '';
  const now = Date.now();
  // Levels 3/4: the encrypted submission.json the browser uploaded (by its name; the server cannot read it).
  const fileUuid =
    handOff.file_uuid ??
    (await trx.selectFrom('delivery_files').select('uuid').where('delivery_id', '=', delivery.id).where('name', '=', SUBMISSION_JSON_FILE).where('status', '=', 'committed').executeTakeFirst())?.uuid ??
    null;
  await trx.updateTable('flow_hand_offs').set({ state: webhook ? 'pending' : 'noWebhook', sent_at: now, file_uuid: fileUuid }).where('id', '=', handOff.id).execute();
  if (webhook) await enqueueJob(trx, FLOW_WEBHOOK_JOB, { handOffId: handOff.uuid } satisfies FlowWebhookPayload);
}

export const handOffByUuid = (db: Kysely<Database>, uuid: string) => db.selectFrom('flow_hand_offs').selectAll().where('uuid', '=', uuid).executeTakeFirst();

/** The hand-offs' submission.json files as the server knows them (name, stored size), by file id. */
export async function attachmentsOf(db: Kysely<Database>, fileUuids: readonly (string | null)[]): Promise<Map<string, FlowAttachment>> {
  const wanted = [...new Set(fileUuids.filter((u): u is string => u !== null))];
  const rows = wanted.length === 0 ? [] : await db.selectFrom('delivery_files').select(['uuid', 'name', 'size']).where('uuid', 'in', wanted).where('status', '=', 'committed').execute();
  return new Map(rows.map((r) => [r.uuid, { name: r.name, size: Number(r.size) }]));
}

/**
 * When the queue runs each pending hand-off's webhook job (after a failed attempt: the retry's
 * time, issue 33 §2), by hand-off id. The job's payload is exactly what `enqueueJob` stored.
 */
async function nextAttemptsOf(db: Kysely<Database>, rows: readonly HandOffRow[]): Promise<Map<string, number>> {
  const payloads = new Map(rows.filter((r) => r.state === 'pending').map((r) => [JSON.stringify({ handOffId: r.uuid } satisfies FlowWebhookPayload), r.uuid]));
  if (payloads.size === 0) return new Map();
  const jobs = await db.selectFrom('jobs').select(['payload', 'run_at']).where('kind', '=', FLOW_WEBHOOK_JOB).where('state', '=', 'pending').where('payload', 'in', [...payloads.keys()]).execute();
  return new Map(jobs.map((job) => [payloads.get(job.payload)!, Number(job.run_at)]));
}

async function toWire(app: FastifyInstance, rows: HandOffRow[]): Promise<HandOff[]> {
  const formIds = [...new Set(rows.map((r) => r.form_id).filter((id): id is number => id !== null))];
  const forms = formIds.length === 0 ? [] : await app.db.selectFrom('forms').select(['id', 'uuid']).where('id', 'in', formIds).execute();
  const uuidOf = new Map(forms.map((f) => [f.id, f.uuid]));
  const attachments = await attachmentsOf(app.db, rows.map((r) => r.file_uuid));
  const nextAttempts = await nextAttemptsOf(app.db, rows);
  return rows.map((row) => {
    const parsed = row.submission === null ? null : SubmissionJsonSchema.safeParse(JSON.parse(row.submission));
    return {
      handOffId: row.uuid,
      formUuid: row.form_id === null ? null : (uuidOf.get(row.form_id) ?? null),
      formName: row.form_name,
      deliveryUuid: row.delivery_id === null ? null : row.delivery_uuid,
      securityLevel: levelNumberOf(row.security_level),
      state: row.state as HandOffState,
      attempts: row.attempts,
      lastError: row.last_error,
      createdAt: Number(row.created_at),
      sentAt: row.sent_at === null ? null : Number(row.sent_at),
      lastAttemptAt: row.last_attempt_at === null ? null : Number(row.last_attempt_at),
      nextAttemptAt: nextAttempts.get(row.uuid) ?? null,
      deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
      submission: parsed?.success ? parsed.data : null,
      encrypted: isEncryptedHandOff(row.security_level),
      attachment: row.file_uuid === null ? null : (attachments.get(row.file_uuid) ?? null),
    };
  });
}

/** Newest first, by id; `cursor` is the last id of the previous page. Drafts never sent are not listed. */
export async function listHandOffs(app: FastifyInstance, query: { cursor?: string | undefined; q?: string | undefined; limit: number }): Promise<FlowList> {
  let select = app.db.selectFrom('flow_hand_offs').selectAll().where('state', '!=', 'waiting');
  if (query.cursor !== undefined) {
    if (!/^[1-9][0-9]{0,15}$/.test(query.cursor)) throw badRequest('Unknown cursor', { field: 'cursor', reason: 'invalidCursor' });
    select = select.where('id', '<', Number(query.cursor));
  }
  const needle = query.q?.trim().toLowerCase();
  if (needle) {
    // LIKE with the wildcards of the search text escaped, the same on SQLite and PostgreSQL.
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    select = select.where(sql<boolean>`search_text like ${pattern} escape '\\'`);
  }
  const rows = await select.orderBy('id', 'desc').limit(query.limit + 1).execute();
  const page = rows.slice(0, query.limit);
  return { items: await toWire(app, page), nextCursor: rows.length > query.limit ? String(page[page.length - 1]!.id) : null };
}

/** A failed webhook hand-off is queued again (attempts keep counting; the state shows pending at once). */
export async function retryHandOff(app: FastifyInstance, uuid: string): Promise<HandOff> {
  const row = await handOffByUuid(app.db, uuid);
  if (!row) throw notFound('No such hand-off');
  await app.db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('flow_hand_offs').set({ state: 'pending', last_error: null }).where('id', '=', row.id).where('state', '=', 'failed').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict('Only a failed hand-off can be retried');
    await enqueueJob(trx, FLOW_WEBHOOK_JOB, { handOffId: row.uuid } satisfies FlowWebhookPayload);
  });
  app.jobs.kick();
  return listHandOffWire(app, uuid);
}

/** One hand-off as the Flows page shows it. */
export async function listHandOffWire(app: FastifyInstance, uuid: string): Promise<HandOff> {
  const [wire] = await toWire(app, [(await handOffByUuid(app.db, uuid))!]);
  return wire!;
}
