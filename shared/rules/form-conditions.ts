import type { FieldCondition } from '@shared/contract/form-conditions';
import type { ProcessPage } from '@shared/contract/form-pages';
import { DISPLAY_ONLY_FIELD_TYPES, type CustomField, type FieldValue } from '@shared/contract/forms';
import { formSteps, type FormStep } from './form-pages-rules';
import type { FormProblem } from './form-rules';

/**
 * Conditional questions (shared/contract/form-conditions.ts): which fields and pages a form shows
 * for the values entered so far — one code for the public page (fields vanish live, Next and
 * Submit check only what is shown), the server (a hidden required field is not required, a value
 * for a hidden field is dropped) and the editor's checks on save.
 */

const chosenOf = (value: FieldValue | undefined): string[] => {
  if (value === undefined) return [];
  if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
  return value.map((v) => (typeof v === 'string' ? v : v.name));
};

/** Whether a condition holds for the values (a checkbox or a file list: one of its entries matches). */
export function conditionMet(condition: FieldCondition | null, values: Readonly<Record<string, FieldValue>>): boolean {
  if (condition === null) return true;
  const chosen = chosenOf(values[condition.field]);
  if (condition.operator === 'filled') return chosen.length > 0;
  const wanted = condition.operator === 'equals' ? condition.values.slice(0, 1) : condition.values;
  return chosen.some((c) => wanted.includes(c));
}

export interface VisibleValues {
  /** The values of the fields shown, and only those. */
  values: Record<string, FieldValue>;
  /** Names of the fields a condition hides (their own, or their page's). */
  hidden: Set<string>;
  /** Ids of the pages a condition hides. */
  hiddenPages: Set<string>;
}

/**
 * Walks the form in the public page's order (pages, then fields): a page or field is shown when its
 * condition holds for the values kept so far. A hidden field's value is not kept, so a field that
 * depends on it is hidden too.
 */
export function visibleValues(pages: readonly ProcessPage[], fields: readonly CustomField[], values: Readonly<Record<string, FieldValue>>): VisibleValues {
  const kept: Record<string, FieldValue> = {};
  const hidden = new Set<string>();
  const hiddenPages = new Set<string>();
  const known = new Set(fields.map((f) => f.name));
  for (const step of formSteps(pages, fields)) {
    const pageShown = step.page === null || conditionMet(step.page.condition, kept);
    if (!pageShown && step.page) hiddenPages.add(step.page.id);
    for (const { field } of step.fields) {
      if (!pageShown || !conditionMet(field.condition, kept)) hidden.add(field.name);
      else if (values[field.name] !== undefined) kept[field.name] = values[field.name]!;
    }
  }
  // Names of no field stay, so the server still answers them "unknown field".
  for (const [name, value] of Object.entries(values)) if (!known.has(name)) kept[name] = value;
  return { values: kept, hidden, hiddenPages };
}

/**
 * The step the visitor submits from: the last one a condition does not hide (issue 33 §5 — a
 * hidden last page would otherwise be where Submit waits). The first step is always shown (its
 * condition could only name a field before it, and there is none).
 */
export function lastShownStep(steps: readonly FormStep[], hiddenPages: ReadonlySet<string>): number {
  for (let i = steps.length - 1; i > 0; i--) if (!(steps[i]!.page && hiddenPages.has(steps[i]!.page!.id))) return i;
  return 0;
}

/**
 * §5 problems of the conditions: a condition names a value field shown before it (for a page: on
 * an earlier page), and `equals`/`oneOf` name at least one value ("invalidCondition").
 */
export function conditionProblems(pages: readonly ProcessPage[], fields: readonly CustomField[]): FormProblem[] {
  const problems: FormProblem[] = [];
  const earlier = new Set<string>();
  const valueField = (f: CustomField) => !DISPLAY_ONLY_FIELD_TYPES.includes(f.type);
  const fine = (condition: FieldCondition | null, before: ReadonlySet<string>) =>
    condition === null || (before.has(condition.field) && (condition.operator === 'filled' || condition.values.some((v) => v.trim() !== '')));
  for (const step of formSteps(pages, fields)) {
    if (step.page && !fine(step.page.condition, earlier)) problems.push({ field: `processPages.${pages.indexOf(step.page)}.condition`, reason: 'invalidCondition' });
    for (const { field, index } of step.fields) {
      if (!fine(field.condition, earlier)) problems.push({ field: `customFields.${index}.condition`, reason: 'invalidCondition' });
      if (valueField(field)) earlier.add(field.name);
    }
  }
  return problems;
}
