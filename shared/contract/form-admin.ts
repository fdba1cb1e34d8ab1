import { z } from 'zod';

/**
 * Form administration beyond the options of shared/contract/forms.ts (issue 16 §2): the Users
 * tab (editors, allowed submitters), notifications and the subject template, the confirmation
 * mail, the look of the public page, and the History tab.
 *
 * | Call | Who | What |
 * |---|---|---|
 * | GET /forms/{formUuid}/history?page=&pageSize= | the form's creator and editors (ROLE_SECUFORMS), ROLE_ADMIN | who changed what, newest first |
 *
 * A form is edited by its creator, the editors of its Users tab, and administrators: every other
 * ROLE_SECUFORMS user gets 403 on it and does not see it in the list.
 */

/** Placeholders a subject template may use; `{field:<name>}` names a custom field of the form. */
export const SUBJECT_PLACEHOLDERS = ['formName', 'date'] as const;
export const SUBJECT_TEMPLATE_MAX = 500;
export const CONFIRMATION_TEXT_MAX = 10_000;
/** `#rgb` or `#rrggbb`, or empty (the theme's colour). */
export const FORM_COLOUR_PATTERN = /^(?:#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})?$/;

const APPEARANCE_SHAPE = {
  primaryColor: z.string().max(7).default(''),
  textColor: z.string().max(7).default(''),
  /** Transparency of the form's panel over the background, percent. */
  transparency: z.number().int().min(0).max(100).default(0),
  darkTheme: z.boolean().default(false),
  /** The public page shows the organisation's logo (the theme logo; the product's when none is uploaded). */
  showCompanyLogo: z.boolean().default(false),
};
export const FormAppearanceSchema = z.object(APPEARANCE_SHAPE).strict().meta({ id: 'FormAppearance' });
export type FormAppearance = z.infer<typeof FormAppearanceSchema>;
export const DEFAULT_APPEARANCE: FormAppearance = FormAppearanceSchema.parse({});

const ADMIN_SHAPE = {
  /** Users (ROLE_SECUFORMS) who may edit the form besides its creator, by address. */
  editors: z.array(z.string().max(320)).max(100).default([]),
  /** Only-authenticated forms: the users who may submit, by address (empty and no role: any signed-in user). */
  submitters: z.array(z.string().max(320)).max(500).default([]),
  /** Only-authenticated forms: every holder of ROLE_SUBMITTER may submit too. */
  submitterRole: z.boolean().default(false),
  /** Recipients get the usual new-delivery notification mail. */
  notifyRecipients: z.boolean().default(true),
  /** The delivery's subject; empty = the standard subject. Placeholders: SUBJECT_PLACEHOLDERS and {field:<name>}. */
  subjectTemplate: z.string().max(SUBJECT_TEMPLATE_MAX).default(''),
  /** Text of the submitter's confirmation mail; empty = no confirmation mail. */
  confirmationMailText: z.string().max(CONFIRMATION_TEXT_MAX).default(''),
  appearance: FormAppearanceSchema.default(DEFAULT_APPEARANCE),
};
/** The form's administration settings (the `admin` part of a saved form). */
export const FormAdminSchema = z.object(ADMIN_SHAPE).strict().meta({ id: 'FormAdminSettings' });
export type FormAdmin = z.infer<typeof FormAdminSchema>;
export type FormAdminInput = z.input<typeof FormAdminSchema>;
export const DEFAULT_FORM_ADMIN: FormAdmin = FormAdminSchema.parse({});

export const FORM_HISTORY_ACTIONS = ['created', 'updated', 'activated', 'deactivated', 'deleted'] as const;
export type FormHistoryAction = (typeof FORM_HISTORY_ACTIONS)[number];

export const FormHistoryQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(25),
  })
  .strict()
  .meta({ id: 'FormHistoryQuery' });
export type FormHistoryQuery = z.input<typeof FormHistoryQuerySchema>;

/** One changed setting: short values before/after, or null for long ones (fields, texts, layout). */
export const FormHistoryChangeSchema = z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() }).meta({ id: 'FormHistoryChange' });
export type FormHistoryChange = z.infer<typeof FormHistoryChangeSchema>;

export const FormHistoryEntrySchema = z
  .object({
    id: z.number().int(),
    /** Epoch ms. */
    at: z.number(),
    action: z.enum(FORM_HISTORY_ACTIONS),
    /** The acting user's address at the time. */
    actor: z.string(),
    changes: z.array(FormHistoryChangeSchema),
  })
  .meta({ id: 'FormHistoryEntry' });
export type FormHistoryEntry = z.infer<typeof FormHistoryEntrySchema>;

export const FormHistorySchema = z
  .object({ entries: z.array(FormHistoryEntrySchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'FormHistory' });
export type FormHistory = z.infer<typeof FormHistorySchema>;
