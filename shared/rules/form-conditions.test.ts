import { CustomFieldInputSchema, type CustomFieldInput } from '@shared/contract/forms';
import { ProcessPageInputSchema } from '@shared/contract/form-pages';
import { describe, expect, it } from 'vitest';
import { conditionMet, conditionProblems, lastShownStep, visibleValues } from './form-conditions';
import { formSteps } from './form-pages-rules';
import { formConfigProblems, submissionProblems } from './form-rules';
import { FormInputSchema } from '@shared/contract/forms';
import { SECURITY_LEVEL_ORDER } from '@shared/contract/security-levels';

const field = (input: CustomFieldInput) => CustomFieldInputSchema.parse(input);
const page = (id: string, condition: unknown = null) => ProcessPageInputSchema.parse({ id, title: id, condition });

describe('conditionMet', () => {
  const values = { Topic: 'Claim', Extras: ['Insurance', 'Rental car'], Note: '  ' };
  it('equals, oneOf and filled, a checkbox matching by one of its choices', () => {
    expect(conditionMet(null, values)).toBe(true);
    expect(conditionMet({ field: 'Topic', operator: 'equals', values: ['Claim'] }, values)).toBe(true);
    expect(conditionMet({ field: 'Topic', operator: 'equals', values: ['Other', 'Claim'] }, values)).toBe(false);
    expect(conditionMet({ field: 'Topic', operator: 'oneOf', values: ['Other', 'Claim'] }, values)).toBe(true);
    expect(conditionMet({ field: 'Extras', operator: 'equals', values: ['Rental car'] }, values)).toBe(true);
    expect(conditionMet({ field: 'Note', operator: 'filled', values: [] }, values)).toBe(false);
    expect(conditionMet({ field: 'Missing', operator: 'filled', values: [] }, values)).toBe(false);
  });
});

describe('visibleValues', () => {
  const fields = [
    field({ name: 'Topic', type: 'radio', options: ['Claim', 'Other'], required: true }),
    field({ name: 'Claim number', type: 'text', textAreaSize: 1, required: true, condition: { field: 'Topic', operator: 'equals', values: ['Claim'] } }),
    field({ name: 'Amount', type: 'number', condition: { field: 'Claim number', operator: 'filled' } }),
  ];

  it('a hidden field is not required, and its value (and what depends on it) is dropped', () => {
    const shown = visibleValues([], fields, { Topic: 'Other', 'Claim number': 'X-1', Amount: '5' });
    expect(shown.values).toEqual({ Topic: 'Other' });
    expect([...shown.hidden]).toEqual(['Claim number', 'Amount']);
    expect(submissionProblems(fields, shown.values, shown.hidden)).toEqual([]);
  });

  it('a shown required field stays required', () => {
    const shown = visibleValues([], fields, { Topic: 'Claim' });
    expect(submissionProblems(fields, shown.values, shown.hidden)).toEqual([{ field: 'Claim number', reason: 'required' }]);
  });

  it("a hidden page hides its fields; unknown names stay for the server's answer", () => {
    const paged = [field({ name: 'Topic', type: 'radio', options: ['a', 'b'], page: 'one' }), field({ name: 'Detail', type: 'text', textAreaSize: 1, required: true, page: 'two' })];
    const pages = [page('one'), page('two', { field: 'Topic', operator: 'oneOf', values: ['a'] })];
    const shown = visibleValues(pages, paged, { Topic: 'b', Detail: 'x', Stray: 'y' });
    expect(shown.values).toEqual({ Topic: 'b', Stray: 'y' });
    expect([...shown.hiddenPages]).toEqual(['two']);
    expect(visibleValues(pages, paged, { Topic: 'a', Detail: 'x' }).values).toEqual({ Topic: 'a', Detail: 'x' });
  });

  it('the visitor submits from the last page a condition does not hide (issue 33 §5)', () => {
    const paged = [
      field({ name: 'Topic', type: 'radio', options: ['a', 'b'], page: 'one' }),
      field({ name: 'Middle', type: 'text', textAreaSize: 1, page: 'two' }),
      field({ name: 'Detail', type: 'text', textAreaSize: 1, required: true, page: 'three' }),
    ];
    const pages = [page('one'), page('two', { field: 'Topic', operator: 'equals', values: ['b'] }), page('three', { field: 'Topic', operator: 'equals', values: ['a'] })];
    const steps = formSteps(pages, paged);
    expect(lastShownStep(steps, visibleValues(pages, paged, { Topic: 'a' }).hiddenPages)).toBe(2);
    expect(lastShownStep(steps, visibleValues(pages, paged, { Topic: 'b' }).hiddenPages)).toBe(1);
    // Nothing chosen yet: both later pages are hidden, so the first page is the last one.
    expect(lastShownStep(steps, visibleValues(pages, paged, {}).hiddenPages)).toBe(0);
    expect(lastShownStep(formSteps([], paged), new Set())).toBe(0);
  });

  it('conditions name an earlier value field and a value to compare with', () => {
    const later = [field({ name: 'A', type: 'text', textAreaSize: 1, condition: { field: 'B', operator: 'filled' } }), field({ name: 'B', type: 'text', textAreaSize: 1 })];
    expect(conditionProblems([], later)).toEqual([{ field: 'customFields.0.condition', reason: 'invalidCondition' }]);
    const empty = [field({ name: 'A', type: 'text', textAreaSize: 1 }), field({ name: 'B', type: 'text', textAreaSize: 1, condition: { field: 'A', operator: 'equals', values: [' '] } })];
    expect(conditionProblems([], empty)).toEqual([{ field: 'customFields.1.condition', reason: 'invalidCondition' }]);
    const pages = [page('one', { field: 'A', operator: 'filled' }), page('two')];
    const onPages = [field({ name: 'A', type: 'text', textAreaSize: 1, page: 'one' })];
    expect(conditionProblems(pages, onPages)).toEqual([{ field: 'processPages.0.condition', reason: 'invalidCondition' }]);
  });
});

describe('number and rating fields', () => {
  const number = field({ name: 'Count', type: 'number', min: 1, max: 10, step: 0.5 });
  const whole = field({ name: 'Whole', type: 'number', integer: true });
  const stars = field({ name: 'Stars', type: 'rating', ratingMax: 5 });
  const reason = (f: typeof number, value: string) => submissionProblems([f], { [f.name]: value })[0]?.reason;

  it('checks the value, its range, step and whole numbers', () => {
    expect(reason(number, '2.5')).toBeUndefined();
    expect(reason(number, '10')).toBeUndefined();
    expect(reason(number, 'ten')).toBe('invalidNumber');
    expect(reason(number, '1e3')).toBe('invalidNumber');
    expect(reason(number, '11')).toBe('numberOutOfRange');
    expect(reason(number, '0.5')).toBe('numberOutOfRange');
    expect(reason(number, '1.2')).toBe('numberStep');
    expect(reason(whole, '-3')).toBeUndefined();
    expect(reason(whole, '3.5')).toBe('notInteger');
  });

  it('a rating takes 1 … ratingMax stars', () => {
    expect(reason(stars, '5')).toBeUndefined();
    expect(reason(stars, '0')).toBe('invalidRating');
    expect(reason(stars, '6')).toBe('invalidRating');
    expect(reason(field({ name: 'Stars', type: 'rating', ratingMax: 10 }), '10')).toBeUndefined();
  });

  it('the editor: min not above max, a positive step', () => {
    const form = FormInputSchema.parse({ name: 'F', url: 'f', securityLevel: SECURITY_LEVEL_ORDER[0], mandatoryRecipients: ['a@example.test'], customFields: [{ name: 'N', type: 'number', min: 5, max: 1, step: 0 }] });
    expect(formConfigProblems(form)).toEqual([
      { field: 'customFields.0.max', reason: 'invalidRange' },
      { field: 'customFields.0.step', reason: 'invalidStep' },
    ]);
  });
});
