import { MS_PER_DAY } from '@shared/contract/constants';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { fieldProblem, toDraft, toStored, type SettingField } from './setting-values';

// Messages as "key {options}" so the tests see which message and figures were chosen.
const t = ((key: string, options?: object) => (options ? `${key} ${JSON.stringify(options)}` : key)) as unknown as TFunction;

const days: SettingField = { kind: 'integer', key: 'k.days', label: 'Days', scale: MS_PER_DAY, min: 1, max: 100 };
const list: SettingField = { kind: 'list', key: 'k.list', label: 'List', lineProblem: (line) => (line.startsWith('@') ? undefined : `bad ${line}`) };
const nullableText: SettingField = { kind: 'text', key: 'k.text', label: 'Text', nullable: true };
const choice: SettingField = { kind: 'choice', key: 'k.choice', label: 'Choice', options: [{ value: 3, label: 'three' }, { value: 'smtp', label: 'SMTP' }] };

describe('setting values between the server and the form', () => {
  it('shows milliseconds as days and stores days as milliseconds', () => {
    expect(toDraft(days, 30 * MS_PER_DAY)).toBe('30');
    expect(toStored(days, '30')).toBe(30 * MS_PER_DAY);
    // Not a whole day (set through the API): shown with two decimals, never rounded silently on save (the form sends only edited keys).
    expect(toDraft(days, 1.5 * MS_PER_DAY)).toBe('1.5');
  });

  it('shows a comma-separated list one entry per line and stores it trimmed, without blank lines', () => {
    expect(toDraft(list, '@a.example, x@b.example,')).toBe('@a.example\nx@b.example');
    expect(toStored(list, ' @a.example \n\n x@b.example\r\n')).toBe('@a.example,x@b.example');
    expect(toStored(list, '')).toBe('');
  });

  it('stores an empty nullable text as null and keeps number choices numbers', () => {
    expect(toDraft(nullableText, null)).toBe('');
    expect(toStored(nullableText, '  ')).toBeNull();
    expect(toStored(nullableText, ' a@b.example ')).toBe('a@b.example');
    expect(toDraft(choice, 3)).toBe('3');
    expect(toStored(choice, '3')).toBe(3);
    expect(toStored(choice, 'smtp')).toBe('smtp');
  });

  it('checks whole numbers in range, list entries and commas', () => {
    expect(fieldProblem(t, days, '10')).toBeUndefined();
    expect(fieldProblem(t, days, '0')).toContain('integerRange');
    expect(fieldProblem(t, days, '101')).toContain('integerRange');
    expect(fieldProblem(t, days, '2.5')).toContain('integerRange');
    expect(fieldProblem(t, days, 'ten')).toContain('integerRange');
    expect(fieldProblem(t, list, '@a.example\n@b.example')).toBeUndefined();
    expect(fieldProblem(t, list, '@a.example\nnope')).toBe('bad nope');
    expect(fieldProblem(t, list, '@a.example,@b.example')).toContain('listComma');
    expect(fieldProblem(t, { kind: 'text', key: 'm', label: 'Mail', inputType: 'email' }, 'not-an-address')).toBe('common:validation.email');
  });
});
