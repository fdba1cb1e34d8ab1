import {
  DISPLAY_ONLY_FIELD_TYPES,
  FORM_FILE_KB_MAX,
  FORM_SIGNATURE_MAX,
  FORM_URL_PATTERN,
  type CustomField,
  type DeclaredFile,
  type FieldValue,
  type FormInputParsed,
} from '@shared/contract/forms';
import { nameKey, textNameProblem } from '@shared/contract/names';
import { isValidEmail } from './send-rules';

/**
 * SPEC §5 rules of web forms, for the server (which enforces them) and the web client (which
 * shows them before saving or submitting). Each problem names the field (`name`, `url`,
 * `customFields.2.options`, or a custom field's name for values) and a reason the clients map to
 * their text.
 */
export interface FormProblem {
  field: string;
  reason: string;
  /** `unknownPlaceholder`: the first placeholder the form cannot fill, braces included (issue 33 §2). */
  placeholder?: string;
}

const HTML_TAG = /<\/?[a-z][^>]*>/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isValidHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export function isValidRegex(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

function isValidDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** The translations tab's text: a JSON object whose keys are languages and values objects. */
export function translationsProblem(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'invalidJson';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'invalidJson';
  for (const [key, value] of Object.entries(parsed)) {
    if (!['de', 'en', 'fr'].includes(key) || typeof value !== 'object' || value === null || Array.isArray(value)) return 'invalidJson';
  }
  return undefined;
}

function fieldConfigProblems(field: CustomField, index: number): FormProblem[] {
  const at = (reason: string, key = '') => ({ field: `customFields.${index}${key ? `.${key}` : ''}`, reason });
  const problems: FormProblem[] = [];
  if (field.name.trim() === '') problems.push(at('required', 'name'));
  // A field's name is shown to submitters and names their values: the name rule's character part, like the form's name.
  const hidden = textNameProblem(field.name);
  if (hidden) problems.push(at(hidden, 'name'));
  if (field.type === 'text' && (field.textAreaSize === null || field.textAreaSize < 1 || field.textAreaSize > 10)) problems.push(at('textAreaSize', 'textAreaSize'));
  if ((field.type === 'checkbox' || field.type === 'radio' || field.type === 'dropdown') && (field.options.length === 0 || field.options.some((o) => o.trim() === ''))) {
    problems.push(at('optionsRequired', 'options'));
  }
  if (field.type === 'file' && (field.maxFileSizeKb === null || field.maxFileSizeKb < 1 || field.maxFileSizeKb > FORM_FILE_KB_MAX)) problems.push(at('maxFileSize', 'maxFileSizeKb'));
  if (field.type === 'link' && !isValidHttpUrl(field.defaultValue)) problems.push(at('invalidUrl', 'defaultValue'));
  if (field.type === 'userAttribute' && field.userAttribute === null) problems.push(at('required', 'userAttribute'));
  if (field.regex !== '' && !isValidRegex(field.regex)) problems.push(at('invalidRegex', 'regex'));
  if (field.type === 'number') {
    if (field.min !== null && field.max !== null && field.min > field.max) problems.push(at('invalidRange', 'max'));
    if (field.step !== null && !(field.step > 0)) problems.push(at('invalidStep', 'step'));
  }
  for (const key of ['startDate', 'endDate'] as const) {
    const value = field[key];
    if (value !== null && !isValidDate(value)) problems.push(at('invalidDate', key));
  }
  return problems;
}

/** Every §5 problem of a form configuration that needs no database (names and URL uniqueness are the server's). */
export function formConfigProblems(input: FormInputParsed): FormProblem[] {
  const problems: FormProblem[] = [];
  if (input.name.trim() === '') problems.push({ field: 'name', reason: 'required' });
  // The product's one name rule, its character part (a form's name is no file name: `:` and `?` stay allowed).
  const hidden = textNameProblem(input.name);
  if (hidden) problems.push({ field: 'name', reason: hidden });
  if (input.url.trim() === '') problems.push({ field: 'url', reason: 'required' });
  else if (!FORM_URL_PATTERN.test(input.url)) problems.push({ field: 'url', reason: 'invalidUrl' });
  const recipients = [...input.mandatoryRecipients, ...input.optionalRecipients];
  if (recipients.length === 0) problems.push({ field: 'mandatoryRecipients', reason: 'noRecipients' });
  input.mandatoryRecipients.forEach((r, i) => isValidEmail(r.trim().toLowerCase()) || problems.push({ field: `mandatoryRecipients.${i}`, reason: 'invalidEmail' }));
  input.optionalRecipients.forEach((r, i) => isValidEmail(r.trim().toLowerCase()) || problems.push({ field: `optionalRecipients.${i}`, reason: 'invalidEmail' }));
  if (input.senderEmail !== null && !isValidEmail(input.senderEmail.trim().toLowerCase())) problems.push({ field: 'senderEmail', reason: 'invalidEmail' });
  if (HTML_TAG.test(input.disclaimerText)) problems.push({ field: 'disclaimerText', reason: 'htmlNotAllowed' });
  if (input.disclaimerEnabled && input.disclaimerText.trim() === '') problems.push({ field: 'disclaimerText', reason: 'required' });
  if (input.layout.redirectUrl !== '' && !isValidHttpUrl(input.layout.redirectUrl)) problems.push({ field: 'layout.redirectUrl', reason: 'invalidUrl' });
  const translations = translationsProblem(input.translations);
  if (translations) problems.push({ field: 'translations', reason: translations });
  const names = new Set<string>();
  input.customFields.forEach((field, index) => {
    problems.push(...fieldConfigProblems(field, index));
    const key = nameKey(field.name.trim());
    if (key !== '' && names.has(key)) problems.push({ field: `customFields.${index}.name`, reason: 'duplicateName' });
    names.add(key);
  });
  return problems;
}

function fileMatches(file: DeclaredFile, allowed: string): boolean {
  const entries = allowed.split(',').map((e) => e.trim().toLowerCase()).filter((e) => e !== '');
  if (entries.length === 0) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return entries.some((entry) => {
    if (entry.includes('/')) return entry.endsWith('/*') ? type.startsWith(entry.slice(0, -1)) : type === entry;
    const extension = entry.startsWith('.') ? entry : `.${entry}`;
    return name.endsWith(extension);
  });
}

const isFileList = (value: FieldValue): value is DeclaredFile[] => Array.isArray(value) && value.every((v) => typeof v === 'object');
const isStringList = (value: FieldValue): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

function valueProblem(field: CustomField, value: FieldValue | undefined): string | undefined {
  if (field.type === 'file') {
    const files = value === undefined ? [] : isFileList(value) ? value : undefined;
    if (files === undefined) return 'invalidValue';
    if (files.length === 0) return field.required ? 'required' : undefined;
    const names = new Set<string>();
    for (const file of files) {
      if (names.has(file.name)) return 'duplicateFile';
      names.add(file.name);
      if (file.size === 0) return 'emptyFile';
      if (field.maxFileSizeKb !== null && file.size > field.maxFileSizeKb * 1024) return 'fileTooLarge';
      if (!fileMatches(file, field.allowedFileTypes)) return 'fileTypeNotAllowed';
    }
    return undefined;
  }
  if (field.type === 'checkbox') {
    const chosen = value === undefined ? [] : isStringList(value) ? value : undefined;
    if (chosen === undefined) return 'invalidValue';
    if (chosen.length === 0) return field.required ? 'required' : undefined;
    return chosen.every((c) => field.options.includes(c)) ? undefined : 'invalidOption';
  }
  if (value !== undefined && typeof value !== 'string') return 'invalidValue';
  const text = (value ?? '').trim();
  if (text === '') return field.required ? 'required' : undefined;
  if ((field.type === 'radio' || field.type === 'dropdown') && !field.options.includes(text)) return 'invalidOption';
  if (field.type === 'email' && !isValidEmail(text.toLowerCase())) return 'invalidEmail';
  if (field.type === 'date') {
    if (!isValidDate(text)) return 'invalidDate';
    if ((field.startDate !== null && text < field.startDate) || (field.endDate !== null && text > field.endDate)) return 'dateOutOfRange';
  }
  if (field.type === 'signature' && !isPngDataUrl(text)) return 'invalidValue';
  if (field.type === 'number') return numberProblem(field, text);
  if (field.type === 'rating') return ratingValue(field, text) === undefined ? 'invalidRating' : undefined;
  if (field.regex !== '' && isValidRegex(field.regex) && !new RegExp(`^(?:${field.regex})$`, 'u').test(text)) return 'regexMismatch';
  return undefined;
}

const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** A number field's value as a number, or undefined when it is no plain decimal (`.`, no exponent). */
export const numberValue = (text: string): number | undefined => (NUMBER.test(text.trim()) ? Number(text.trim()) : undefined);

/** A rating's stars (1 … ratingMax), or undefined. */
export function ratingValue(field: Pick<CustomField, 'ratingMax'>, text: string): number | undefined {
  const stars = /^\d{1,2}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  return stars >= 1 && stars <= field.ratingMax ? stars : undefined;
}

function numberProblem(field: CustomField, text: string): string | undefined {
  const value = numberValue(text);
  if (value === undefined) return 'invalidNumber';
  if (field.integer && !Number.isInteger(value)) return 'notInteger';
  if ((field.min !== null && value < field.min) || (field.max !== null && value > field.max)) return 'numberOutOfRange';
  if (field.step !== null && field.step > 0) {
    const steps = (value - (field.min ?? 0)) / field.step;
    // Decimal steps (0.1) are not exact in binary: a millionth of a step is still on it.
    if (Math.abs(steps - Math.round(steps)) > 1e-6) return 'numberStep';
  }
  return undefined;
}

/**
 * The submitter's values against the fields (SPEC §5); unknown field names are problems too.
 * `hidden`: fields a condition hides (./form-conditions.ts) — neither required nor checked; their
 * values are dropped before (visibleValues), so one sent anyway is no problem here.
 */
export function submissionProblems(fields: readonly CustomField[], values: Record<string, FieldValue>, hidden: ReadonlySet<string> = new Set()): FormProblem[] {
  const problems: FormProblem[] = [];
  const known = new Set(fields.map((f) => f.name));
  for (const name of Object.keys(values)) if (!known.has(name)) problems.push({ field: name, reason: 'unknownField' });
  for (const field of fields) {
    if (hidden.has(field.name)) continue;
    if (DISPLAY_ONLY_FIELD_TYPES.includes(field.type)) {
      if (values[field.name] !== undefined) problems.push({ field: field.name, reason: 'invalidValue' });
      continue;
    }
    const reason = valueProblem(field, values[field.name]);
    if (reason) problems.push({ field: field.name, reason });
  }
  return problems;
}

/** A value as placeholders show it: text as is, a checkbox's choices and a file field's names joined; a drawn signature is no text (empty). */
export function placeholderText(value: FieldValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return isPngDataUrl(value) ? '' : value;
  return value.map((v) => (typeof v === 'string' ? v : v.name)).join(', ');
}

const TEMPLATE_PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * A text template's text with its placeholders filled in: `{field:<name>}` (the subject template's
 * spelling, docs/flows.md) or the older `{<name>}`. One function for the public page (live, as the
 * visitor types), the server (from the submitted values, never a client's text) and the browser at
 * levels 3/4 (before sealing). A field without a value fills in empty; a placeholder naming no field
 * of `fields` stays as written (without `fields`: any name with a value).
 */
export function fillTemplate(template: string, values: Readonly<Record<string, FieldValue>>, fields?: readonly Pick<CustomField, 'name'>[]): string {
  const names = fields ? new Set(fields.map((f) => f.name.trim())) : undefined;
  return template.replace(TEMPLATE_PLACEHOLDER, (whole, inner: string) => {
    const token = inner.trim();
    const name = token.startsWith('field:') ? token.slice('field:'.length).trim() : token;
    const known = names ? names.has(name) : values[name] !== undefined;
    return known ? placeholderText(values[name]) : whole;
  });
}

/** One uploaded file against its file field's limits (size in kB, allowed types): the §5 reason, or undefined. */
export function uploadedFileProblem(field: CustomField, file: DeclaredFile): string | undefined {
  // A signature travels as its PNG (signatureFile), never larger than the value the schema allowed.
  if (field.type === 'signature') return file.type === 'image/png' && file.size > 0 && file.size <= FORM_SIGNATURE_MAX ? undefined : 'invalidValue';
  if (field.type !== 'file') return 'invalidValue';
  if (file.size === 0) return 'emptyFile';
  if (field.maxFileSizeKb !== null && file.size > field.maxFileSizeKb * 1024) return 'fileTooLarge';
  return fileMatches(file, field.allowedFileTypes) ? undefined : 'fileTypeNotAllowed';
}

const PNG_DATA_URL = 'data:image/png;base64,';
/** Base64 of the 8-byte PNG signature (89 50 4E 47 0D 0A 1A 0A): a drawn signature must be a PNG. */
const PNG_MAGIC_BASE64 = 'iVBORw0KGgo';

/** A signature value: a PNG data URL (magic bytes checked) in valid base64; its size is FORM_SIGNATURE_MAX by the schema. */
export function isPngDataUrl(value: string): boolean {
  if (!value.startsWith(PNG_DATA_URL)) return false;
  const data = value.slice(PNG_DATA_URL.length);
  return data.startsWith(PNG_MAGIC_BASE64) && data.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(data);
}

/**
 * The file a signature value is attached to the delivery as: `<field name>.png` (characters a file
 * name cannot hold replaced), with the PNG's byte size. The server expects exactly this upload.
 */
export function signatureFile(fieldName: string, dataUrl: string): { name: string; size: number; type: string } {
  const data = dataUrl.slice(PNG_DATA_URL.length);
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return { name: `${fieldName.replace(/[^\p{L}\p{N} _-]/gu, '_').trim() || 'signature'}.png`, size: (data.length / 4) * 3 - padding, type: 'image/png' };
}
