import { FORM_PAGE_ID_PATTERN, type ProcessPage } from '@shared/contract/form-pages';
import { type CustomField, type FieldValue } from '@shared/contract/forms';
import type { FormProblem } from './form-rules';
import { submissionProblems } from './form-rules';

/**
 * Process pages (shared/contract/form-pages.ts): the §5 rules of a form's pages, the steps the
 * public page shows, and the check of one step's values — the same code in the server (save) and
 * the web client (editor, Next on the public page).
 */

type PageRef = Pick<ProcessPage, 'id' | 'title'> & { icon?: ProcessPage['icon'] };

/**
 * Pages: ids valid and unique ("invalid process page order"), a title or an icon (§5); fields name
 * existing pages only; no page without a field (issue 33 §2: the visitor would meet an empty step)
 * — a field without a page counts on the first, as `formSteps` shows it.
 */
export function processPageProblems(pages: readonly PageRef[], fields: readonly Pick<CustomField, 'page'>[]): FormProblem[] {
  const problems: FormProblem[] = [];
  const ids = new Set<string>();
  pages.forEach((page, index) => {
    if (!FORM_PAGE_ID_PATTERN.test(page.id) || ids.has(page.id)) problems.push({ field: `processPages.${index}.id`, reason: 'invalidPageOrder' });
    ids.add(page.id);
    if (page.title.trim() === '' && !page.icon) problems.push({ field: `processPages.${index}.title`, reason: 'pageTitleOrIcon' });
  });
  fields.forEach((field, index) => {
    if (field.page !== null && !ids.has(field.page)) problems.push({ field: `customFields.${index}.page`, reason: 'unknownPage' });
  });
  // A field naming an unknown page is reported first: choosing its page may fill an empty one.
  if (problems.some((p) => p.reason === 'unknownPage')) return problems;
  const used = new Set(fields.map((field) => field.page ?? pages[0]?.id));
  pages.forEach((page, index) => {
    if (!used.has(page.id)) problems.push({ field: `processPages.${index}.fields`, reason: 'emptyPage' });
  });
  return problems;
}

export interface FormStep {
  /** null: a form without pages (one step, no title). */
  page: ProcessPage | null;
  /** The step's fields with their index in the form's whole list. */
  fields: { field: CustomField; index: number }[];
}

/** The steps of the public page in page order; a field without a page (or naming an unknown one) is on the first. */
export function formSteps(pages: readonly ProcessPage[], fields: readonly CustomField[]): FormStep[] {
  if (pages.length === 0) return [{ page: null, fields: fields.map((field, index) => ({ field, index })) }];
  const steps: FormStep[] = pages.map((page) => ({ page, fields: [] }));
  fields.forEach((field, index) => {
    const at = Math.max(0, pages.findIndex((p) => p.id === field.page));
    steps[at]!.fields.push({ field, index });
  });
  return steps;
}

/** The step a field (by name) is on, or -1. */
export const stepOfField = (steps: readonly FormStep[], name: string): number => steps.findIndex((s) => s.fields.some((f) => f.field.name === name));

/** §5 problems of one step's values only (Next): the other steps' values are neither checked nor "unknown". */
export function stepProblems(step: FormStep, values: Record<string, FieldValue>, hidden: ReadonlySet<string> = new Set()): FormProblem[] {
  const fields = step.fields.map((f) => f.field);
  const names = new Set(fields.map((f) => f.name));
  return submissionProblems(fields, Object.fromEntries(Object.entries(values).filter(([name]) => names.has(name))), hidden);
}

/**
 * The Translations tab's `fields` and `pages` of one language: `fields` maps a field name to its
 * hint (text) or to `{ label?, hint?, options? }` (`options`: an option's value to its shown text);
 * `pages` maps a page id to `{ title?, description? }`.
 */
export function pageTranslationProblem(key: 'fields' | 'pages', value: unknown, fieldNames: ReadonlySet<string>, pageIds: ReadonlySet<string>): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return true;
  const allowed = key === 'fields' ? ['label', 'hint'] : ['title', 'description'];
  return Object.entries(value).some(([name, texts]) => {
    if (!(key === 'fields' ? fieldNames : pageIds).has(name)) return true;
    if (key === 'fields' && typeof texts === 'string') return false;
    if (typeof texts !== 'object' || texts === null || Array.isArray(texts)) return true;
    return Object.entries(texts).some(([k, v]) => (key === 'fields' && k === 'options' ? !isTextMap(v) : !allowed.includes(k) || typeof v !== 'string'));
  });
}

const isTextMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');

const textOf = (entry: unknown, key: string): string | undefined => {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const value = (entry as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * One language's texts applied to the fields (labels by name, hints) and the pages (titles,
 * descriptions); `optionLabels`: per field name, the shown text of an option value (the value
 * submitted stays the option itself).
 */
export function localisedPagesAndFields(texts: Record<string, unknown>, fields: readonly CustomField[], pages: readonly ProcessPage[]) {
  const fieldTexts = typeof texts.fields === 'object' && texts.fields !== null ? (texts.fields as Record<string, unknown>) : {};
  const pageTexts = typeof texts.pages === 'object' && texts.pages !== null ? (texts.pages as Record<string, unknown>) : {};
  const fieldLabels: Record<string, string> = {};
  const optionLabels: Record<string, Record<string, string>> = {};
  const customFields = fields.map((field) => {
    const entry = fieldTexts[field.name];
    const label = textOf(entry, 'label');
    if (label) fieldLabels[field.name] = label;
    const options = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).options : undefined;
    if (isTextMap(options)) optionLabels[field.name] = Object.fromEntries(Object.entries(options).filter(([value, text]) => text !== '' && field.options.includes(value)));
    const hint = typeof entry === 'string' && entry !== '' ? entry : textOf(entry, 'hint');
    return hint ? { ...field, hint } : field;
  });
  const processPages = pages.map((page) => ({ ...page, title: textOf(pageTexts[page.id], 'title') ?? page.title, description: textOf(pageTexts[page.id], 'description') ?? page.description }));
  return { customFields, processPages, fieldLabels, optionLabels };
}
