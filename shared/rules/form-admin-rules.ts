import { FORM_COLOUR_PATTERN, SUBJECT_PLACEHOLDERS, type FormAdmin } from '@shared/contract/form-admin';
import type { ProcessPage } from '@shared/contract/form-pages';
import type { CustomField, FieldValue } from '@shared/contract/forms';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { isE2eLevel } from '@shared/contract/security-levels';
import { localisedPagesAndFields, pageTranslationProblem } from './form-pages-rules';
import { placeholderText, type FormProblem } from './form-rules';

/**
 * Rules of the form administration settings (shared/contract/form-admin.ts), for the server
 * (which enforces them on save) and the web client (which shows them before saving).
 */

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The placeholders of a subject template a form cannot fill: unknown names, fields it does not have. */
export function unknownSubjectPlaceholders(template: string, fields: readonly Pick<CustomField, 'name'>[]): string[] {
  const names = new Set(fields.map((f) => f.name.trim()));
  const unknown: string[] = [];
  for (const [, inner] of template.matchAll(PLACEHOLDER)) {
    const token = inner!.trim();
    if ((SUBJECT_PLACEHOLDERS as readonly string[]).includes(token)) continue;
    if (token.startsWith('field:') && names.has(token.slice('field:'.length).trim())) continue;
    unknown.push(token);
  }
  return unknown;
}

/**
 * The placeholders a template may not hold: on a published (active) form every one it cannot fill;
 * on a draft only the unknown kinds — a draft may name a field it does not have yet (issue 33 §2:
 * the subject is often written before the field is added), refused once the form is published.
 */
function refusedPlaceholders(template: string, fields: readonly Pick<CustomField, 'name'>[], published: boolean): string[] {
  const unknown = unknownSubjectPlaceholders(template, fields);
  return published ? unknown : unknown.filter((token) => !(token.startsWith('field:') && token.slice('field:'.length).trim() !== ''));
}

/** A subject template or confirmation text: only placeholders it may hold, no stray brace. */
const placeholdersOk = (template: string, fields: readonly Pick<CustomField, 'name'>[], published: boolean) =>
  refusedPlaceholders(template, fields, published).length === 0 && !/[{}]/.test(template.replace(PLACEHOLDER, ''));

/** The problem of a template with a placeholder it cannot fill, naming the first one (a stray brace names none). */
function placeholderProblem(field: string, template: string, fields: readonly Pick<CustomField, 'name'>[], published: boolean): FormProblem {
  const [first] = refusedPlaceholders(template, fields, published);
  return { field, reason: 'unknownPlaceholder', ...(first !== undefined ? { placeholder: `{${first}}` } : {}) };
}

/**
 * `securityLevel` (when given): at levels 3/4 the server never sees the values, so the confirmation
 * mail (which the server writes) refuses `{field:…}` placeholders instead of mailing them empty.
 * `published` (the form is saved active): only then is a `{field:…}` naming no field of the form
 * refused; a draft may name a field created later.
 */
export function formAdminProblems(
  admin: FormAdmin,
  fields: readonly Pick<CustomField, 'name'>[],
  translations = '{}',
  pages: readonly Pick<ProcessPage, 'id'>[] = [],
  securityLevel?: SecurityLevel,
  published = true,
): FormProblem[] {
  const problems: FormProblem[] = [];
  const translation = translationKeysProblem(translations, fields, pages);
  if (translation) problems.push({ field: 'translations', reason: translation });
  if (!placeholdersOk(admin.subjectTemplate, fields, published)) problems.push(placeholderProblem('admin.subjectTemplate', admin.subjectTemplate, fields, published));
  const confirmation = admin.confirmationMailText;
  if (!placeholdersOk(confirmation, fields, published)) problems.push(placeholderProblem('admin.confirmationMailText', confirmation, fields, published));
  else if (securityLevel !== undefined && isE2eLevel(securityLevel) && [...confirmation.matchAll(PLACEHOLDER)].some(([, inner]) => inner!.trim().startsWith('field:'))) {
    problems.push({ field: 'admin.confirmationMailText', reason: 'encryptedFieldPlaceholder' });
  }
  for (const key of ['primaryColor', 'textColor'] as const) {
    if (!FORM_COLOUR_PATTERN.test(admin.appearance[key])) problems.push({ field: `admin.appearance.${key}`, reason: 'invalidColour' });
  }
  return problems;
}

interface PlaceholderContext {
  formName: string;
  date: string;
  values: Readonly<Record<string, FieldValue>>;
}

/** `{formName}`, `{date}` and `{field:<name>}` filled in; each inserted text passed through `clean`. */
function fillPlaceholders(template: string, context: PlaceholderContext, clean: (text: string) => string): string {
  return template.replace(PLACEHOLDER, (whole, inner: string) => {
    const token = inner.trim();
    if (token === 'formName') return clean(context.formName);
    if (token === 'date') return context.date;
    if (token.startsWith('field:')) return clean(placeholderText(context.values[token.slice('field:'.length).trim()]));
    return whole;
  });
}

/** The subject of a submission's delivery: the template filled in (a saved template has known placeholders only); header-safe — no CR/LF. */
export function renderSubject(template: string, context: PlaceholderContext): string {
  return fillPlaceholders(template, context, (text) => text.replace(/[\r\n]+/g, ' ')).replace(/[\r\n]+/g, ' ').trim().slice(0, 255);
}

/**
 * The submitter's confirmation text with the subject template's placeholders filled in. Plain text:
 * the mail templates escape it for the HTML part (server/mail).
 */
export function renderConfirmationText(template: string, context: PlaceholderContext): string {
  return fillPlaceholders(template, context, (text) => text);
}

/**
 * Keys a language of the Translations tab may give. `fields`: by field name, the hint (text) or
 * `{ "label": …, "hint": … }`; `pages`: by process page id, `{ "title": …, "description": … }`
 * (shared/rules/form-pages-rules.ts).
 */
export const TRANSLATION_KEYS = ['name', 'description', 'successTitle', 'successMessage', 'disclaimerText', 'fields', 'pages'] as const;
type TranslationKey = (typeof TRANSLATION_KEYS)[number];

/** Beyond valid JSON (form-rules.ts): unknown keys, non-text values, texts of fields or pages the form does not have. */
export function translationKeysProblem(text: string, fields: readonly Pick<CustomField, 'name'>[], pages: readonly Pick<ProcessPage, 'id'>[] = []): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // form-rules.ts reports invalid JSON
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const names = new Set(fields.map((f) => f.name.trim()));
  const pageIds = new Set(pages.map((p) => p.id));
  for (const texts of Object.values(parsed as Record<string, unknown>)) {
    if (typeof texts !== 'object' || texts === null) continue;
    for (const [key, value] of Object.entries(texts)) {
      if (!(TRANSLATION_KEYS as readonly string[]).includes(key)) return 'unknownTranslationKey';
      if (key === 'fields' || key === 'pages') {
        if (pageTranslationProblem(key, value, names, pageIds)) return 'unknownTranslationKey';
      } else if (typeof value !== 'string') return 'unknownTranslationKey';
    }
  }
  return undefined;
}

/**
 * The public form in the page's language: the Translations tab's texts over the form's own (field
 * hints and page texts included); `fieldLabels` holds the translated labels by field name (the
 * name stays the key of the values).
 */
export function localisedForm<
  F extends { name: string; disclaimerText: string; layout: { description: string; successTitle: string; successMessage: string }; translations: Record<string, unknown>; customFields: CustomField[]; processPages?: ProcessPage[] },
>(form: F, language: string): F & { fieldLabels: Record<string, string>; optionLabels: Record<string, Record<string, string>> } {
  const texts = form.translations[language];
  if (typeof texts !== 'object' || texts === null) return { ...form, fieldLabels: {}, optionLabels: {} };
  const t = texts as Partial<Record<TranslationKey, unknown>>;
  const text = (key: TranslationKey, fallback: string) => (typeof t[key] === 'string' && t[key] !== '' ? t[key] : fallback);
  const { customFields, processPages, fieldLabels, optionLabels } = localisedPagesAndFields(t, form.customFields, form.processPages ?? []);
  return {
    ...form,
    name: text('name', form.name),
    disclaimerText: text('disclaimerText', form.disclaimerText),
    layout: { ...form.layout, description: text('description', form.layout.description), successTitle: text('successTitle', form.layout.successTitle), successMessage: text('successMessage', form.layout.successMessage) },
    customFields,
    ...(form.processPages ? { processPages } : {}),
    fieldLabels,
    optionLabels,
  };
}
