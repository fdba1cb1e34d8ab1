import { SUBMISSION_JSON_SCHEMA_ID, SUBMISSION_JSON_VERSION, type SubmissionJson, type SubmissionJsonHead } from '@shared/contract/flows';
import type { CustomField, FieldValue } from '@shared/contract/forms';
import { fillTemplate } from './form-rules';

/**
 * `submission.json` (docs/flows.md), built once for both sides: the server at levels 1/2
 * (server/forms/flow-json.ts) and the submitter's browser at levels 3/4 from the head the submit
 * answered (shared/transfer/form-submit.ts). Every field but links, in the form's order; a text
 * template with its placeholders filled in; a field not filled in is null.
 */
export function buildSubmissionJson(head: SubmissionJsonHead, fields: readonly CustomField[], values: Readonly<Record<string, FieldValue>>): SubmissionJson {
  return {
    schema: SUBMISSION_JSON_SCHEMA_ID,
    version: SUBMISSION_JSON_VERSION,
    form: head.form,
    submission: head.submission,
    fields: fields
      .filter((field) => field.type !== 'link')
      .map((field) => ({
        name: field.name,
        type: field.type,
        value: field.type === 'textTemplate' ? fillTemplate(field.defaultValue, values, fields) : (values[field.name] ?? null),
      })),
  };
}
