import { FORM_COLOUR_PATTERN, SUBJECT_PLACEHOLDERS, type FormAdmin } from '@shared/contract/form-admin';
import type { CustomField, FieldValue } from '@shared/contract/forms';
import type { FormProblem } from './form-rules';

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

export function formAdminProblems(admin: FormAdmin, fields: readonly Pick<CustomField, 'name'>[]): FormProblem[] {
  const problems: FormProblem[] = [];
  if (unknownSubjectPlaceholders(admin.subjectTemplate, fields).length > 0) problems.push({ field: 'admin.subjectTemplate', reason: 'unknownPlaceholder' });
  if (/[{}]/.test(admin.subjectTemplate.replace(PLACEHOLDER, ''))) problems.push({ field: 'admin.subjectTemplate', reason: 'unknownPlaceholder' });
  for (const key of ['primaryColor', 'textColor'] as const) {
    if (!FORM_COLOUR_PATTERN.test(admin.appearance[key])) problems.push({ field: `admin.appearance.${key}`, reason: 'invalidColour' });
  }
  return problems;
}

const shown = (value: FieldValue | undefined) => (value === undefined ? '' : typeof value === 'string' ? value : value.map((v) => (typeof v === 'string' ? v : v.name)).join(', '));

/** The subject of a submission's delivery: the template filled in (a saved template has known placeholders only). */
export function renderSubject(template: string, context: { formName: string; date: string; values: Record<string, FieldValue> }): string {
  const rendered = template.replace(PLACEHOLDER, (whole, inner: string) => {
    const token = inner.trim();
    if (token === 'formName') return context.formName;
    if (token === 'date') return context.date;
    if (token.startsWith('field:')) return shown(context.values[token.slice('field:'.length).trim()]).replace(/[\r\n]+/g, ' ');
    return whole;
  });
  return rendered.trim().slice(0, 255);
}
