import { ANTI_CSRF_HEADER } from '@shared/contract/auth';
import { reduceLanguage, type Language } from '@shared/contract/constants';
import { FORM_ERRORS, DISPLAY_ONLY_FIELD_TYPES, type CustomField, type FieldValue, type FormSubmitResponse, type PublicForm } from '@shared/contract/forms';
import { z } from 'zod';
import type { FormE2eRecipient } from '@shared/contract/form-e2e';
import { encryptsMessage, isE2eLevel } from '@shared/contract/security-levels';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { FormSubmitBodySchema } from '@shared/contract/forms';
import { fillTemplate, submissionProblems } from '@shared/rules/form-rules';
import { isValidEmail } from '@shared/rules/send-rules';
import { visibleValues } from '@shared/rules/form-conditions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessDenied, authenticationRequired, badRequest } from '../core/http-error';
import { createDraft } from '../deliveries/drafts';
import type { UserRow } from '../users/users-repository';
import { e2eRecipientsOf, e2eSubmitter } from './e2e';
import { adminOf } from './admin-settings';
import { assertMaySubmit, confirmationAddress, confirmationValues, deliveryOptions } from './submission-extras';
import { fieldsOf, formByIdOrUrl, formError, layoutOf, levelOf, recipientsOf, type FormRow } from './forms';
import { startHandOff } from './flow-handoff';
import { pagesOf } from './pages';
import { limitSubmissions, recordDeclaredFiles } from './hardening';
import { publicLayoutImages } from './layout-images';
import { exportValues } from './submission-list';

type SubmitBody = z.infer<typeof FormSubmitBodySchema>;

const SUBJECTS: Record<Language, (form: string) => string> = {
  de: (form) => `Formular „${form}“: neue Einsendung`,
  en: (form) => `Form "${form}": new submission`,
  fr: (form) => `Formulaire « ${form} » : nouvel envoi`,
};

/**
 * A form that takes submissions now, with its sending account: inactive → FormInactiveException;
 * no recipients or no usable sender account → FormInvalidRecipientConfigurationException.
 */
async function openForm(app: FastifyInstance, formId: string): Promise<{ row: FormRow; sender: UserRow; fields: CustomField[]; e2eRecipients: FormE2eRecipient[] }> {
  const row = await formByIdOrUrl(app, formId);
  if (row.active !== 1) throw formError(409, FORM_ERRORS.inactive, 'This form is not active');
  const sender = row.sender_user_id === null ? undefined : await app.users.findById(row.sender_user_id);
  const recipients = [...recipientsOf(row.mandatory_recipients), ...recipientsOf(row.optional_recipients)];
  if (!sender || sender.disabled === 1 || recipients.length === 0) {
    throw formError(409, FORM_ERRORS.invalidRecipients, 'This form has no valid recipient configuration; please tell its operator');
  }
  // Levels 3/4: every recipient's keys, or the page state "passphrase not set".
  const e2eRecipients = await e2eRecipientsOf(app, levelOf(row), recipientsOf(row.mandatory_recipients), recipientsOf(row.optional_recipients));
  return { row, sender, fields: await fieldsOf(app, row.id), e2eRecipients };
}

function parseTranslations(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function publicForm(app: FastifyInstance, formId: string): Promise<PublicForm> {
  const { row, fields, e2eRecipients } = await openForm(app, formId);
  return {
    e2eRecipients,
    formUuid: row.uuid,
    name: row.name,
    securityLevel: levelOf(row),
    captcha: row.captcha === 1,
    onlyAuthenticated: row.only_authenticated === 1,
    optionalRecipients: recipientsOf(row.optional_recipients),
    recipientChoiceRequired: recipientsOf(row.mandatory_recipients).length === 0,
    disclaimerEnabled: row.disclaimer_enabled === 1,
    disclaimerText: row.disclaimer_text,
    layout: layoutOf(row),
    translations: parseTranslations(row.translations),
    customFields: fields,
    maxUploadSize: Number((await app.settings.getAll())[DELIVERY_SETTING_KEYS.maxUploadSize]),
    processPages: pagesOf(row),
    appearance: (await adminOf(app.db, row)).appearance,
    ...(await publicLayoutImages(app, row)),
  };
}

/** Only-authenticated forms take a signed-in web session with its anti-forgery value (the route is public). */
function authenticatedSubmitter(request: FastifyRequest): UserRow {
  const { user, session } = request;
  if (!user || !session || session.kind !== 'cookie') throw authenticationRequired('This form takes submissions from signed-in users only');
  const sent = request.headers[ANTI_CSRF_HEADER];
  if (typeof sent !== 'string' || sent !== session.csrf_token) throw accessDenied('Missing or invalid anti-forgery value');
  return user;
}

function display(value: FieldValue): string {
  if (typeof value === 'string') return value.startsWith('data:image/') ? '[signature attached to this record]' : value;
  return value.map((v) => (typeof v === 'string' ? v : v.name)).join(', ');
}

/** The delivery's message: one line per field (text templates filled in), then who submitted. */
function messageOf(fields: CustomField[], values: Record<string, FieldValue>, submitter: UserRow | null): string {
  const lines: string[] = [];
  for (const field of fields) {
    if (field.type === 'link') continue;
    if (field.type === 'textTemplate') {
      lines.push(fillTemplate(field.defaultValue, values, fields));
      continue;
    }
    const value = values[field.name];
    lines.push(`${field.name}: ${value === undefined ? '' : display(value)}`);
  }
  if (submitter) lines.push('', `Submitted by: ${submitter.email}`);
  return lines.join('\n');
}

const ENCRYPTED_NOTE: Record<Language, string> = {
  de: 'Die Angaben stehen verschlüsselt in der Datei form-values.json.',
  en: 'The values are in the encrypted file form-values.json.',
  fr: 'Les valeurs se trouvent dans le fichier chiffré form-values.json.',
};

/** Level 3: the message is readable by the server, so it only points to the encrypted values. */
function encryptedMessageOf(language: Language, submitter: UserRow | null): string {
  return submitter ? `${ENCRYPTED_NOTE[language]}\n\nSubmitted by: ${submitter.email}` : ENCRYPTED_NOTE[language];
}

/**
 * A submission: the §5 checks (disclaimer, captcha, recipients, every value), then — the submit
 * box's path — a delivery draft from the form's sender to its recipients and a session of kind
 * `submit` limited to that draft (server/core/access.ts), with which the client uploads the files
 * and sends through the ordinary delivery calls.
 */
export async function startFormSubmission(app: FastifyInstance, request: FastifyRequest, formId: string, body: SubmitBody): Promise<FormSubmitResponse> {
  const { row, sender, fields } = await openForm(app, formId);
  await limitSubmissions(app, request.ip, row.uuid);
  const submitter = row.only_authenticated === 1 ? authenticatedSubmitter(request) : null;
  await assertMaySubmit(app, row, submitter);
  if (row.disclaimer_enabled === 1 && !body.disclaimerAccepted) throw badRequest('The disclaimer must be accepted', { problems: [{ field: 'disclaimerAccepted', reason: 'disclaimerNotAccepted' }] });
  const mandatory = recipientsOf(row.mandatory_recipients);
  const optional = recipientsOf(row.optional_recipients);
  const chosen = [...new Set(body.chosenRecipients.map((r) => r.trim().toLowerCase()))];
  if (chosen.some((r) => !optional.includes(r) || !isValidEmail(r))) throw badRequest('Choose recipients of this form only', { problems: [{ field: 'chosenRecipients', reason: 'unknownRecipient' }] });
  if (mandatory.length === 0 && chosen.length === 0) throw badRequest('Choose at least one recipient', { problems: [{ field: 'chosenRecipients', reason: 'noRecipients' }] });
  const level = levelOf(row);
  const encrypted = isE2eLevel(level);
  // Levels 3/4: the values are the browser's to check and encrypt (form-values.json); none in clear here.
  if (encrypted && Object.keys(body.values).length > 0) throw badRequest('This form encrypts its values in the browser', { problems: [{ field: 'values', reason: 'encryptedValuesOnly' }] });
  // Conditional questions: a hidden field is not required and its value is dropped (kept nowhere).
  const shown = visibleValues(pagesOf(row), fields, body.values);
  const values = Object.fromEntries(Object.entries(shown.values).filter(([name]) => !DISPLAY_ONLY_FIELD_TYPES.includes(fields.find((f) => f.name === name)?.type ?? 'text')));
  const problems = encrypted ? [] : submissionProblems(fields, shown.values, shown.hidden);
  if (problems.length > 0) throw formError(400, FORM_ERRORS.fieldInvalid, 'Some fields are not filled in correctly', { problems });
  // Last, so a refused submission does not spend the captcha the submitter answered.
  if (row.captcha === 1 && !(await app.captchas.verify(body.captchaId ?? '', body.captchaAnswer ?? ''))) {
    throw formError(400, FORM_ERRORS.wrongCaptcha, 'The captcha was wrong; please try again');
  }
  const language = body.language ?? reduceLanguage(sender.language);
  // Levels 3/4 are sent by a submitter account of this one submission (its throwaway keys sign).
  const from = encrypted ? await e2eSubmitter(app, row.name, sender, language) : sender;
  // The subject template sees no values at levels 3/4 (they are ciphertext): their placeholders stay empty.
  const { subject, quiet } = await deliveryOptions(app, row, values, SUBJECTS[language](row.name));
  const draft = await createDraft(
    { app, user: from, log: request.log },
    {
      recipients: [...new Set([...mandatory, ...chosen])],
      additionalRecipients: [],
      // Level 4: subject and message travel only inside the encrypted manifest.
      subject: encryptsMessage(level) ? '' : subject,
      quiet,
      body: encryptsMessage(level) ? '' : encrypted ? encryptedMessageOf(language, submitter) : messageOf(fields, values, submitter),
      securityLevel: level,
      language,
    },
  );
  // Flows: submission.json into the draft and a hand-off waiting for the send (forms/flow-handoff.ts).
  const submissionJsonHead = await startHandOff(app, { form: row, draft, level, fields, values, submitter: submitter?.email ?? null, recipients: [...new Set([...mandatory, ...chosen])], language });
  const session = await app.sessions.create(from.id, 'submit');
  // The confirmation mail and the closing of a level 3/4 submitter account wait for the send (./submission-completion.ts).
  const confirmationTo = await confirmationAddress(app, { row, fields, values, submitter });
  await app.db
    .insertInto('form_submissions')
    .values({
      form_id: row.id,
      delivery_id: draft.id,
      session_id: session.session.id,
      created_at: Date.now(),
      confirmation_to: confirmationTo,
      confirmation_values: confirmationTo === null ? null : confirmationValues(values),
      language,
      completed_at: null,
      confirmation_sent_at: null,
      submitter_user_id: encrypted ? from.id : null,
      account_closed_at: null,
      // Levels 1/2: kept for the submissions list and export (./submission-list.ts); never for 3/4.
      submission_values: encrypted ? null : exportValues(fields, values),
      submitter_email: submitter?.email ?? null,
    })
    .execute();
  await recordDeclaredFiles(app, session.session.id, fields, values);
  return { deliveryUuid: draft.uuid, sessionToken: session.token, securityLevel: level, submitterUserUuid: encrypted ? from.uuid : null, submissionJsonHead };
}

/** The delivery a form's submit session may touch (its own draft), for the access check. */
export async function formSessionDelivery(app: FastifyInstance, sessionId: string): Promise<string | undefined> {
  const row = await app.db
    .selectFrom('form_submissions as s')
    .innerJoin('deliveries as d', 'd.id', 's.delivery_id')
    .select('d.uuid')
    .where('s.session_id', '=', sessionId)
    .executeTakeFirst();
  return row?.uuid;
}
