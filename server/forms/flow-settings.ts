import { randomBytes } from 'node:crypto';
import type { ProcessService, ProcessServiceInput, ProcessServiceSecret } from '@shared/contract/flows';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import { badRequest } from '../core/http-error';
import type { Database } from '../db/schema';
import { checkOutboundUrl, OutboundRefusedError, outboundPolicy } from '../outbound/outbound-guard';
import type { UserRow } from '../users/users-repository';
import { assertMayEditForm } from './admin-settings';
import { formByUuid, type FormRow } from './forms';
import type { FormFlowsTable } from './flow-tables';
import './flow-tables';

export type FormFlowRow = Selectable<FormFlowsTable>;

/** A form's process-service row, or undefined when it never had one (= off). */
export const formFlowOf = (db: Kysely<Database>, formId: number): Promise<FormFlowRow | undefined> =>
  db.selectFrom('form_flows').selectAll().where('form_id', '=', formId).executeTakeFirst();

const toWire = (row: FormFlowRow | undefined): ProcessService => ({
  enabled: row?.enabled === 1,
  webhookUrl: row?.webhook_url ?? '',
  secretSet: (row?.secret ?? null) !== null,
  secretCreatedAt: row?.secret_created_at === null || row?.secret_created_at === undefined ? null : Number(row.secret_created_at),
});

/**
 * The form, when this user may edit it: the process service is part of the form, so the same rule
 * (creator, editors, administrators; others 403 — the role alone is not enough, a form's id is in
 * its public link).
 */
async function editableForm(app: FastifyInstance, user: UserRow, formUuid: string): Promise<FormRow> {
  const form = await formByUuid(app, formUuid);
  await assertMayEditForm(app.db, user, form);
  return form;
}

export async function getProcessService(app: FastifyInstance, user: UserRow, formUuid: string): Promise<ProcessService> {
  const form = await editableForm(app, user, formUuid);
  return toWire(await formFlowOf(app.db, form.id));
}

/**
 * On/off and the webhook URL: https (http only when the operator allows it), no credentials, a
 * public address unless allow-listed (server/outbound/outbound-guard.ts; checked again at every
 * attempt). A webhook needs the shared secret first (`rotateSecret`): none goes out unsigned.
 */
export async function saveProcessService(app: FastifyInstance, user: UserRow, formUuid: string, input: Required<ProcessServiceInput>): Promise<ProcessService> {
  const form = await editableForm(app, user, formUuid);
  const existing = await formFlowOf(app.db, form.id);
  const url = input.webhookUrl.trim();
  if (url !== '') {
    try {
      await checkOutboundUrl(url, outboundPolicy(app.config));
    } catch (error) {
      if (!(error instanceof OutboundRefusedError)) throw error;
      throw badRequest(`The webhook URL is not accepted: ${error.message}`, { problems: [{ field: 'webhookUrl', reason: error.reason }] });
    }
    if ((existing?.secret ?? null) === null) throw badRequest('Create the shared secret before setting a webhook', { problems: [{ field: 'webhookUrl', reason: 'secretMissing' }] });
  }
  const now = Date.now();
  await app.db
    .insertInto('form_flows')
    .values({ form_id: form.id, enabled: input.enabled ? 1 : 0, webhook_url: url, secret: null, secret_created_at: null, updated_at: now })
    .onConflict((oc) => oc.column('form_id').doUpdateSet({ enabled: input.enabled ? 1 : 0, webhook_url: url, updated_at: now }))
    .execute();
  return toWire(await formFlowOf(app.db, form.id));
}

/** A new secret (32 random bytes), answered this once; stored sealed with the server key. */
export async function rotateSecret(app: FastifyInstance, user: UserRow, formUuid: string): Promise<ProcessServiceSecret> {
  const form = await editableForm(app, user, formUuid);
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const sealed = app.secretBox.seal(form.id, 'form_flows.secret', secret);
  const now = Date.now();
  await app.db
    .insertInto('form_flows')
    .values({ form_id: form.id, enabled: 0, webhook_url: '', secret: sealed, secret_created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('form_id').doUpdateSet({ secret: sealed, secret_created_at: now, updated_at: now }))
    .execute();
  return { secret, secretCreatedAt: now };
}

/** The plaintext secret for signing (throws when it was sealed under another key). */
export const secretOf = (app: FastifyInstance, row: FormFlowRow): string | null => (row.secret === null ? null : app.secretBox.open(row.form_id, 'form_flows.secret', row.secret));
