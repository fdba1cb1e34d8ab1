import { CustomFieldInputSchema } from '@shared/contract/forms';
import { ProcessPageSchema } from '@shared/contract/form-pages';
import { describe, expect, it } from 'vitest';
import { localisedForm } from './form-admin-rules';
import { formSteps, processPageProblems, stepOfField, stepProblems } from './form-pages-rules';

const pages = [ProcessPageSchema.parse({ id: 'a', title: 'First', description: '', icon: null }), ProcessPageSchema.parse({ id: 'b', title: 'Second', description: 'More', icon: 'upload' })];
const fields = [
  CustomFieldInputSchema.parse({ name: 'Name', type: 'text', required: true, textAreaSize: 1, page: 'a' }),
  CustomFieldInputSchema.parse({ name: 'Topic', type: 'dropdown', required: true, options: ['x'], page: 'b' }),
  CustomFieldInputSchema.parse({ name: 'Note', type: 'text', textAreaSize: 1 }),
];

describe('process page rules', () => {
  it('steps: pages in order, fields on their page, a field without one on the first; no pages → one step', () => {
    const steps = formSteps(pages, fields);
    expect(steps.map((s) => [s.page?.id, s.fields.map((f) => [f.field.name, f.index])])).toEqual([
      ['a', [['Name', 0], ['Note', 2]]],
      ['b', [['Topic', 1]]],
    ]);
    expect(stepOfField(steps, 'Topic')).toBe(1);
    expect(stepOfField(steps, 'Nope')).toBe(-1);
    expect(formSteps([], fields).map((s) => [s.page, s.fields.length])).toEqual([[null, 3]]);
  });

  it('a step checks only its own fields (values of other steps are not "unknown")', () => {
    const [first, second] = formSteps(pages, fields);
    expect(stepProblems(first!, { Topic: 'x' })).toEqual([{ field: 'Name', reason: 'required' }]);
    expect(stepProblems(first!, { Name: 'Pat', Topic: 'bad' })).toEqual([]);
    expect(stepProblems(second!, { Name: 'Pat', Topic: 'bad' })).toEqual([{ field: 'Topic', reason: 'invalidOption' }]);
  });

  it('§5: a title or an icon, ids valid and unique, fields name existing pages', () => {
    expect(processPageProblems(pages, fields)).toEqual([]);
    expect(processPageProblems([{ id: 'i', title: '', icon: 'mail' }], [{ page: null }])).toEqual([]);
    // No field on a page (issue 33 §2); a field without a page is on the first.
    expect(processPageProblems([{ id: 'i', title: 'Empty' }], [])).toEqual([{ field: 'processPages.0.fields', reason: 'emptyPage' }]);
    expect(processPageProblems(pages, [{ page: null }])).toEqual([{ field: 'processPages.1.fields', reason: 'emptyPage' }]);
    expect(processPageProblems([{ id: 'a', title: ' ' }, { id: 'a', title: 'x' }, { id: 'ü', title: 'y' }], [{ page: 'c' }, { page: null }])).toEqual([
      { field: 'processPages.0.title', reason: 'pageTitleOrIcon' },
      { field: 'processPages.1.id', reason: 'invalidPageOrder' },
      { field: 'processPages.2.id', reason: 'invalidPageOrder' },
      { field: 'customFields.0.page', reason: 'unknownPage' },
    ]);
  });

  it('localised: labels, hints and page texts of the language, the base texts where it has none', () => {
    const form = {
      name: 'Apply',
      disclaimerText: '',
      layout: { description: '', successTitle: '', successMessage: '' },
      translations: { de: { fields: { Name: { label: 'Name (de)', hint: 'Hinweis' }, Note: 'Notiz-Hinweis', Topic: { options: { x: 'Ix', gone: 'Weg' } } }, pages: { b: { title: 'Zweite' } } } },
      customFields: fields,
      processPages: pages,
    };
    const de = localisedForm(form, 'de');
    expect(de.fieldLabels).toEqual({ Name: 'Name (de)' });
    // Option texts only for options the field has; the field's options (the submitted values) stay.
    expect(de.optionLabels).toEqual({ Topic: { x: 'Ix' } });
    expect(de.customFields[1]!.options).toEqual(['x']);
    expect(localisedForm(form, 'en').optionLabels).toEqual({});
    expect(de.customFields.map((f) => [f.name, f.hint])).toEqual([['Name', 'Hinweis'], ['Topic', ''], ['Note', 'Notiz-Hinweis']]);
    expect(de.processPages.map((p) => [p.title, p.description])).toEqual([['First', ''], ['Zweite', 'More']]);
    expect(localisedForm(form, 'en').processPages).toBe(pages);
  });
});
