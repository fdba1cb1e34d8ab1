import { z } from 'zod';
import { CONDITION_SHAPE, FieldConditionSchema } from './form-conditions';

/**
 * Process pages of a web form (SPEC §3 "process page", §5; issue 16 §2): the public page shows
 * the custom fields in steps, one page at a time. A form without pages is one page, as before.
 *
 * - `processPages` (on the saved form and the public form): the pages in their order; a page's
 *   `id` is chosen by the editor (the web client makes a short random one) and stays when pages
 *   are renamed or reordered, so fields keep their page.
 * - `page` (on a custom field): the id of the page the field is on; null puts it on the first
 *   page (and is the only value a form without pages accepts).
 *
 * The rules (every page id a field names exists, a title or an icon, ids unique) are
 * shared/rules/form-pages-rules.ts, run by the server on save and by the web client.
 */

export const FORM_PAGES_MAX = 20;
export const FORM_PAGE_TITLE_MAX = 200;
export const FORM_PAGE_DESCRIPTION_MAX = 2000;
export const FORM_PAGE_ID_MAX = 40;
/** Letters, digits, `_` and `-`: the id travels in translations JSON keys and element ids. */
export const FORM_PAGE_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
/** The icons a page may show in the public page's step heading (SPEC §3 "title, icon, number"); the web maps each to a Fluent UI icon. */
export const FORM_PAGE_ICONS = ['document', 'person', 'upload', 'signature', 'calendar', 'mail', 'info', 'check'] as const;
export type FormPageIcon = (typeof FORM_PAGE_ICONS)[number];

const PAGE_SHAPE = {
  id: z.string().min(1).max(FORM_PAGE_ID_MAX),
  title: z.string().max(FORM_PAGE_TITLE_MAX),
  description: z.string().max(FORM_PAGE_DESCRIPTION_MAX).default(''),
  /** Optional; a page needs a title or an icon (§5). */
  icon: z.enum(FORM_PAGE_ICONS).nullable().default(null),
  /** Shown only when an answer on an earlier page matches (./form-conditions.ts). */
  ...CONDITION_SHAPE,
};
export const ProcessPageInputSchema = z.object(PAGE_SHAPE).strict().meta({ id: 'SaveFormProcessPage' });
export const ProcessPageSchema = z.object({ ...PAGE_SHAPE, description: z.string(), icon: z.enum(FORM_PAGE_ICONS).nullable(), condition: FieldConditionSchema.nullable().default(null) }).meta({ id: 'FormProcessPage' });
export type ProcessPage = z.infer<typeof ProcessPageSchema>;

/** Spread into the saved form's shape (shared/contract/forms.ts FORM_SHAPE). */
export const FORM_PAGES_SHAPE = {
  processPages: z.array(ProcessPageInputSchema).max(FORM_PAGES_MAX).default([]),
};
/** Spread into the answered shapes (Form, PublicForm). */
export const FORM_PAGES_ANSWER_SHAPE = {
  processPages: z.array(ProcessPageSchema),
};
/** Spread into the custom field's shape. */
export const FIELD_PAGE_SHAPE = {
  page: z.string().max(FORM_PAGE_ID_MAX).nullable().default(null),
};
