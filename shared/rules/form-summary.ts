import { SUMMARY_FIELD_TYPES, type FormResponseSummary, type SummaryField } from '@shared/contract/form-response-summary';
import type { CustomField } from '@shared/contract/forms';
import { keptValueText, type KeptValue, type KeptValues } from './form-export';
import { numberValue, ratingValue } from './form-rules';

/**
 * The response summary (shared/contract/form-response-summary.ts) from submissions' kept values
 * (name → text or list; shared/rules/form-export.ts): the server's kept values at levels 1/2 and the
 * browser's decrypted ones at levels 3/4 give the same figures.
 */

const isSummaryType = (type: string): type is SummaryField['type'] => (SUMMARY_FIELD_TYPES as readonly string[]).includes(type);

/**
 * The options a checkbox's answer holds. Kept as a list (issue 33 §4), an option counts when it is
 * one of the list's entries, whatever it contains. Rows kept before that hold one text joined with
 * ", ": there an option counts when it is the whole text or one of its ", "-separated parts (an
 * option holding ", " itself can blur — those rows are read as well as they can be).
 */
export function chosenOptions(options: readonly string[], answer: KeptValue): string[] {
  if (typeof answer !== 'string') return options.filter((o) => answer.includes(o));
  const text = answer;
  if (text === '') return [];
  return options.filter((o) => text === o || text.startsWith(`${o}, `) || text.endsWith(`, ${o}`) || text.includes(`, ${o}, `));
}

const round = (n: number) => Math.round(n * 100) / 100;

function fieldSummary(field: CustomField & { type: SummaryField['type'] }, kept: readonly KeptValue[]): SummaryField {
  const answered = kept.filter((k) => keptValueText(k).trim() !== '');
  if (field.type === 'number' || field.type === 'rating') {
    const numbers = answered.map(keptValueText).map((t) => (field.type === 'rating' ? ratingValue(field, t) : numberValue(t))).filter((n): n is number => n !== undefined);
    const stars = Array.from({ length: field.type === 'rating' ? field.ratingMax : 0 }, (_v, i) => i + 1);
    return {
      name: field.name,
      type: field.type,
      answered: numbers.length,
      counts: stars.map((s) => ({ value: String(s), count: numbers.filter((n) => n === s).length })),
      average: numbers.length === 0 ? null : round(numbers.reduce((a, b) => a + b, 0) / numbers.length),
      min: numbers.length === 0 ? null : Math.min(...numbers),
      max: numbers.length === 0 ? null : Math.max(...numbers),
    };
  }
  const chosen = answered.map((k) => (field.type === 'checkbox' ? chosenOptions(field.options, k) : field.options.filter((o) => o === keptValueText(k).trim())));
  return {
    name: field.name,
    type: field.type,
    answered: chosen.filter((c) => c.length > 0).length,
    counts: field.options.map((o) => ({ value: o, count: chosen.filter((c) => c.includes(o)).length })),
    average: null,
    min: null,
    max: null,
  };
}

export function responseSummary(fields: readonly CustomField[], submissions: readonly KeptValues[]): FormResponseSummary {
  return {
    total: submissions.length,
    fields: fields.filter((f): f is CustomField & { type: SummaryField['type'] } => isSummaryType(f.type)).map((f) => fieldSummary(f, submissions.map((s) => s[f.name] ?? ''))),
  };
}
