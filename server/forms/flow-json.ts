import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { partBounds } from '@shared/contract/deliveries';
import { SUBMISSION_JSON_FILE, type SubmissionJson, type SubmissionJsonHead } from '@shared/contract/flows';
import type { CustomField, FieldValue } from '@shared/contract/forms';
import type { Language } from '@shared/contract/constants';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { securityLevelNumber } from '@shared/contract/security-levels';
import { buildSubmissionJson } from '@shared/rules/submission-json';
import type { RequestContext } from '../core/request-context';
import { addFile, commitFile, putPart } from '../deliveries/parts';
import type { DeliveryRow } from '../deliveries/records';
import type { FormRow } from './forms';

export interface SubmissionFacts {
  form: FormRow;
  draft: DeliveryRow;
  level: SecurityLevel;
  fields: CustomField[];
  /** The submitted values (display-only fields already dropped). */
  values: Record<string, FieldValue>;
  submitter: string | null;
  recipients: string[];
  language: Language;
}

/** What the server knows of a submission: the head of submission.json (docs/flows.md), without the fields. */
export function submissionJsonHead(facts: Omit<SubmissionFacts, 'fields' | 'values'>): SubmissionJsonHead {
  const { form, draft } = facts;
  return {
    form: { uuid: form.uuid, name: form.name, url: form.url },
    submission: {
      deliveryUuid: draft.uuid,
      submittedAt: new Date(Number(draft.created_at)).toISOString(),
      language: facts.language,
      securityLevel: securityLevelNumber(facts.level),
      submitter: facts.submitter,
      recipients: facts.recipients,
    },
  };
}

/** submission.json at levels 1/2: the same builder the browser runs at levels 3/4 (shared/rules/submission-json.ts). */
export const submissionJson = (facts: SubmissionFacts): SubmissionJson => buildSubmissionJson(submissionJsonHead(facts), facts.fields, facts.values);

/**
 * Attaches the JSON to the draft as `submission.json` through the delivery's own file calls
 * (announce, parts, commit) as the form's sender; `announced` records the file's id before its
 * bytes. Levels 1–2 only: at 3/4 the server must not hold plaintext (the submitter's browser
 * would encrypt it like the other files; docs/flows.md).
 */
export async function attachSubmissionJson(ctx: RequestContext, draftUuid: string, json: SubmissionJson, announced: (fileUuid: string) => Promise<void>): Promise<string> {
  const bytes = Buffer.from(`${JSON.stringify(json, null, 2)}\n`, 'utf8');
  const file = await addFile(ctx, draftUuid, { name: SUBMISSION_JSON_FILE, size: bytes.length, mimeType: 'application/json' });
  await announced(file.fileId);
  for (let index = 0; index < file.partCount; index++) {
    const { start, end } = partBounds({ size: bytes.length, partSize: file.partSize }, index);
    const part = bytes.subarray(start, end);
    await putPart(ctx, {
      deliveryUuid: draftUuid,
      fileId: file.fileId,
      index,
      sha256: createHash('sha256').update(part).digest('hex'),
      contentLength: part.length,
      body: Readable.from([part]),
    });
  }
  await commitFile(ctx, draftUuid, file.fileId);
  return file.fileId;
}
