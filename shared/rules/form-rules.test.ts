import { CustomFieldInputSchema, FormInputSchema, type CustomFieldInput } from '@shared/contract/forms';
import { SECURITY_LEVEL_ORDER } from '@shared/contract/security-levels';
import { describe, expect, it } from 'vitest';
import { fillTemplate, formConfigProblems, submissionProblems, translationsProblem } from './form-rules';

const field = (input: CustomFieldInput) => CustomFieldInputSchema.parse(input);
const form = (overrides: Record<string, unknown> = {}) =>
  FormInputSchema.parse({ name: 'Form', url: 'form', securityLevel: SECURITY_LEVEL_ORDER[0], mandatoryRecipients: ['a@example.test'], ...overrides });

describe('formConfigProblems', () => {
  it('a complete form has none', () => {
    expect(formConfigProblems(form({ customFields: [{ name: 'A', type: 'text', textAreaSize: 3 }, { name: 'B', type: 'radio', options: ['x'] }] }))).toEqual([]);
  });

  it('names each problem at its field', () => {
    const problems = formConfigProblems(
      form({
        name: ' ',
        url: 'Bad Url',
        securityLevel: SECURITY_LEVEL_ORDER[3],
        mandatoryRecipients: [],
        disclaimerText: '<script>x</script>',
        translations: '[]',
        customFields: [{ name: 'x', type: 'file' }, { name: 'X', type: 'link', defaultValue: 'ftp://x' }],
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        { field: 'name', reason: 'required' },
        { field: 'url', reason: 'invalidUrl' },
        { field: 'mandatoryRecipients', reason: 'noRecipients' },
        { field: 'disclaimerText', reason: 'htmlNotAllowed' },
        { field: 'translations', reason: 'invalidJson' },
        { field: 'customFields.0.maxFileSizeKb', reason: 'maxFileSize' },
        { field: 'customFields.1.defaultValue', reason: 'invalidUrl' },
        { field: 'customFields.1.name', reason: 'duplicateName' },
      ]),
    );
  });

  it("a form's name: the one name rule's character part (issue 28), `:` and `?` allowed", () => {
    const nameProblems = (name: string) => formConfigProblems(form({ name })).filter((p) => p.field === 'name');
    expect(nameProblems('Contact: sales?')).toEqual([]);
    expect(nameProblems('Caf\u0065\u0301')).toEqual([]);
    expect(nameProblems('Pay\u202Eroll')).toEqual([{ field: 'name', reason: 'bidiControl' }]);
    expect(nameProblems('\uFEFFForm')).toEqual([{ field: 'name', reason: 'zeroWidth' }]);
    expect(nameProblems('Two\nlines')).toEqual([{ field: 'name', reason: 'controlCharacters' }]);
  });

  it("a custom field's name: the same character part (issue 28), compared in NFC", () => {
    const fieldNameProblems = (...names: string[]) =>
      formConfigProblems(form({ customFields: names.map((name) => field({ name, type: 'email' })) })).filter((p) => p.field.startsWith('customFields.'));
    expect(fieldNameProblems('Your e-mail: work?')).toEqual([]);
    expect(fieldNameProblems('E\u202Email')).toEqual([{ field: 'customFields.0.name', reason: 'bidiControl' }]);
    expect(fieldNameProblems('Mail\u200D')).toEqual([{ field: 'customFields.0.name', reason: 'zeroWidth' }]);
    expect(fieldNameProblems('Two\tparts')).toEqual([{ field: 'customFields.0.name', reason: 'controlCharacters' }]);
    expect(fieldNameProblems('Caf\u0065\u0301', 'CAFÉ')).toEqual([{ field: 'customFields.1.name', reason: 'duplicateName' }]);
  });

  it('translations: an object of de/en/fr objects', () => {
    expect(translationsProblem('{"de":{"a":"b"},"fr":{}}')).toBeUndefined();
    expect(translationsProblem('{')).toBe('invalidJson');
    expect(translationsProblem('{"it":{}}')).toBe('invalidJson');
    expect(translationsProblem('{"de":"x"}')).toBe('invalidJson');
  });
});

describe('submissionProblems', () => {
  const fields = [
    field({ name: 'Code', type: 'text', required: true, regex: '[A-Z]{3}', textAreaSize: 1 }),
    field({ name: 'Day', type: 'date', startDate: '2026-01-01', endDate: '2026-12-31' }),
    field({ name: 'Pick', type: 'checkbox', options: ['a', 'b'] }),
    field({ name: 'Docs', type: 'file', maxFileSizeKb: 1, allowedFileTypes: 'application/pdf, .txt', required: true }),
  ];
  const ok = { Code: 'ABC', Docs: [{ name: 'x.txt', size: 10, type: '' }] };

  it('accepts good values', () => {
    expect(submissionProblems(fields, ok)).toEqual([]);
    expect(submissionProblems(fields, { ...ok, Day: '2026-06-30', Pick: ['a', 'b'], Docs: [{ name: 'scan', size: 1024, type: 'application/pdf' }] })).toEqual([]);
  });

  it('the regex must match the whole value', () => {
    expect(submissionProblems(fields, { ...ok, Code: 'ABCD' })).toEqual([{ field: 'Code', reason: 'regexMismatch' }]);
  });

  it.each([
    [{ Code: '' }, 'Code', 'required'],
    [{ Day: '2025-12-31' }, 'Day', 'dateOutOfRange'],
    [{ Day: '2026-02-30' }, 'Day', 'invalidDate'],
    [{ Pick: ['c'] }, 'Pick', 'invalidOption'],
    [{ Docs: [] }, 'Docs', 'required'],
    [{ Docs: [{ name: 'big.txt', size: 1025, type: '' }] }, 'Docs', 'fileTooLarge'],
    [{ Docs: [{ name: 'x.exe', size: 1, type: '' }] }, 'Docs', 'fileTypeNotAllowed'],
    [{ Docs: [{ name: 'e.txt', size: 0, type: '' }] }, 'Docs', 'emptyFile'],
    [{ Other: 'x' }, 'Other', 'unknownField'],
  ])('%j → %s %s', (change, name, reason) => {
    expect(submissionProblems(fields, { ...ok, ...change })).toContainEqual({ field: name, reason });
  });
});

it('fillTemplate replaces known placeholders and keeps unknown ones', () => {
  expect(fillTemplate('{Name} wants {Pick} and {Missing}', { Name: 'Ann', Pick: ['a', 'b'] })).toBe('Ann wants a, b and {Missing}');
});

it('fillTemplate fills {field:<name>} like the subject template; a field without a value is empty, an unknown name stays', () => {
  const fields = [{ name: 'Full name' }, { name: 'Topic' }, { name: 'Files' }];
  const template = '{field:Full name} about {field: Topic} with {field:Files} ({field:Nope}, {Full name})';
  expect(fillTemplate(template, { 'Full name': 'Paula', Topic: 'Sales', Files: [{ name: 'a.pdf', size: 1, type: 'application/pdf' }] }, fields)).toBe('Paula about Sales with a.pdf ({field:Nope}, Paula)');
  expect(fillTemplate(template, {}, fields)).toBe(' about  with  ({field:Nope}, )');
});
