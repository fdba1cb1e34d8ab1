import { CustomFieldInputSchema } from '@shared/contract/forms';
import { describe, expect, it } from 'vitest';
import { localisedForm, renderSubject, unknownSubjectPlaceholders } from './form-admin-rules';

const fields = [CustomFieldInputSchema.parse({ name: 'Full name', type: 'text', hint: 'Your name' }), CustomFieldInputSchema.parse({ name: 'Files', type: 'file' })];

describe('form administration rules', () => {
  it('subject placeholders: known names and fields of the form only', () => {
    expect(unknownSubjectPlaceholders('{formName} {date} {field:Full name} { field: Files }', fields)).toEqual([]);
    expect(unknownSubjectPlaceholders('{name} {field:Other} {}', fields)).toEqual(['name', 'field:Other', '']);
  });

  it('renders a subject: values on one line, lists joined, at most 255 characters', () => {
    const values = { 'Full name': 'Ada\nLovelace', Files: [{ name: 'a.pdf', size: 1, type: '' }, { name: 'b.pdf', size: 1, type: '' }] };
    expect(renderSubject('{formName}: {field:Full name} ({field:Files}) {date}', { formName: 'Apply', date: '2026-11-25', values })).toBe('Apply: Ada Lovelace (a.pdf, b.pdf) 2026-11-25');
    expect(renderSubject('{field:Full name}', { formName: 'x', date: '', values: { 'Full name': 'x'.repeat(400) } })).toHaveLength(255);
  });

  it('the public form in a language: translated texts and hints, the rest unchanged', () => {
    const form = { name: 'Apply', disclaimerText: 'D', layout: { description: 'Desc', successTitle: 'Thanks', successMessage: 'M', redirectUrl: '' }, translations: { de: { name: 'Antrag', fields: { 'Full name': 'Ihr Name' } } }, customFields: fields };
    const de = localisedForm(form, 'de');
    expect(de.name).toBe('Antrag');
    expect(de.layout).toEqual(form.layout);
    expect(de.customFields.map((f) => f.hint)).toEqual(['Ihr Name', '']);
    expect(localisedForm(form, 'fr')).toEqual({ ...form, fieldLabels: {}, optionLabels: {} });
  });
});
