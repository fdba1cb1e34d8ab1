import { SubmissionJsonSchema, type SubmissionJsonHead } from '@shared/contract/flows';
import { CustomFieldInputSchema, type CustomFieldInput } from '@shared/contract/forms';
import { describe, expect, it } from 'vitest';
import { buildSubmissionJson } from './submission-json';

const field = (input: CustomFieldInput) => CustomFieldInputSchema.parse(input);
const head: SubmissionJsonHead = {
  form: { uuid: 'f-1', name: 'Claim', url: 'claim' },
  submission: { deliveryUuid: 'd-1', submittedAt: '2026-11-26T02:00:00.000Z', language: 'en', securityLevel: 3, submitter: null, recipients: ['a@example.test'] },
};

describe('buildSubmissionJson', () => {
  it('every field but links in the form order, templates filled in, missing values null; valid against the schema', () => {
    const fields = [
      field({ name: 'Name', type: 'text' }),
      field({ name: 'Terms', type: 'link', defaultValue: 'https://example.test/terms' }),
      field({ name: 'Topics', type: 'checkbox', options: ['A', 'B'] }),
      field({ name: 'Phone', type: 'text' }),
      field({ name: 'Summary', type: 'textTemplate', defaultValue: '{field:Name}: {field:Topics}' }),
    ];
    const json = buildSubmissionJson(head, fields, { Name: 'Pia', Topics: ['A', 'B'], Terms: 'ignored' });
    expect(SubmissionJsonSchema.strict().parse(json)).toEqual({
      schema: 'https://kuvert.example/schemas/form-submission/v1.json',
      version: 1,
      ...head,
      fields: [
        { name: 'Name', type: 'text', value: 'Pia' },
        { name: 'Topics', type: 'checkbox', value: ['A', 'B'] },
        { name: 'Phone', type: 'text', value: null },
        { name: 'Summary', type: 'textTemplate', value: 'Pia: A, B' },
      ],
    });
  });
});
