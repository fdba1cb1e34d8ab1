import type { ConfigValue } from '@shared/contract/config';
import type { TFunction } from 'i18next';

/** What the form shows for a setting: a switch's state or the text of an input. */
export type DraftValue = string | boolean;
export type Draft = Record<string, DraftValue>;

export interface FieldBase {
  /** The setting key of PUT /admin/settings. */
  key: string;
  /** Label text (already translated: per-language fields add the language). */
  label: string;
  hint?: string;
  /** Hidden while the other values make it irrelevant (its value is kept and not sent unless changed). */
  visibleWhen?: (draft: Draft) => boolean;
}

export type SettingField = FieldBase &
  (
    | { kind: 'switch' }
    | { kind: 'text'; multiline?: boolean; inputType?: 'email' | 'url'; /** Empty is stored as null. */ nullable?: boolean }
    /** A whole number shown in `unit`s: the stored value is the shown one times `scale` (e.g. days → ms). */
    | { kind: 'integer'; min: number; max?: number; scale?: number; unit?: string }
    | { kind: 'choice'; options: { value: string | number; label: string }[] }
    /** Comma-separated in the setting, one entry per line in the form; `lineProblem` checks each entry. */
    | { kind: 'list'; lineProblem?: (line: string) => string | undefined }
  );

export function toDraft(field: SettingField, value: ConfigValue | undefined): DraftValue {
  switch (field.kind) {
    case 'switch':
      return value === true;
    case 'integer': {
      const shown = Number(value ?? 0) / (field.scale ?? 1);
      // Values set elsewhere may not be whole units; two decimals show them without noise.
      return Number.isInteger(shown) ? String(shown) : String(Math.round(shown * 100) / 100);
    }
    case 'list':
      return String(value ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .join('\n');
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

const linesOf = (text: string) =>
  text
    .split(/[\r\n]+/)
    .map((line) => line.trim())
    .filter(Boolean);

export function toStored(field: SettingField, draft: DraftValue): ConfigValue {
  switch (field.kind) {
    case 'switch':
      return draft === true;
    case 'integer':
      return Number(draft) * (field.scale ?? 1);
    case 'list':
      return linesOf(String(draft)).join(',');
    case 'choice':
      return field.options.find((option) => String(option.value) === draft)?.value ?? String(draft);
    case 'text': {
      const text = field.multiline ? String(draft) : String(draft).trim();
      return field.nullable && text.trim() === '' ? null : text;
    }
  }
}

/** The form's own checks of one field (the server checks again and has the last word). */
export function fieldProblem(t: TFunction, field: SettingField, draft: DraftValue): string | undefined {
  const text = String(draft).trim();
  if (field.kind === 'integer') {
    const n = Number(text);
    const inRange = /^\d+$/.test(text) && n >= field.min && (field.max === undefined || n <= field.max);
    if (inRange) return undefined;
    return field.max === undefined ? t('admin:settingsForm.errors.integerMin', { min: field.min }) : t('admin:settingsForm.errors.integerRange', { min: field.min, max: field.max });
  }
  if (field.kind === 'list') {
    const lines = linesOf(text);
    if (lines.some((line) => line.includes(','))) return t('admin:settingsForm.errors.listComma');
    const bad = field.lineProblem ? lines.map((line) => field.lineProblem!(line)).find(Boolean) : undefined;
    return bad;
  }
  if (field.kind === 'text' && field.inputType === 'email' && text && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) return t('common:validation.email');
  return undefined;
}
