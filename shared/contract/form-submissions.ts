import { z } from 'zod';
import { SecurityLevelSchema } from './deliveries';

/**
 * A form's submissions list and export (issue 33 §1), for the form's creator, its editors and
 * administrators (the same people as its History tab):
 *
 * | Call | What |
 * |---|---|
 * | GET /forms/{formUuid}/submissions?page=&pageSize= | newest first: time, submitter, level, state, and for levels 1/2 the values |
 * | GET /forms/{formUuid}/submissions/csv | every submission as CSV (shared/rules/csv.ts: BOM, the caller's locale separator) |
 *
 * Values are kept for levels 1/2 from migration 0073 on; older submissions list and export
 * without values (`values: null`). Levels 3/4 never have values on the server: the browser
 * decrypts each submission's form-values.json and builds the export itself.
 */
export const FORM_SUBMISSION_STATES = ['open', 'sent'] as const;
export type FormSubmissionState = (typeof FORM_SUBMISSION_STATES)[number];

export const FormSubmissionListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(25),
  })
  .strict()
  .meta({ id: 'FormSubmissionListQuery' });
export type FormSubmissionListQuery = z.input<typeof FormSubmissionListQuerySchema>;

export const FormSubmissionSchema = z
  .object({
    id: z.number().int(),
    /** Epoch ms. */
    at: z.number(),
    /** The signed-in submitter's address (only-authenticated forms); null: anonymous. */
    submitter: z.string().nullable(),
    securityLevel: SecurityLevelSchema,
    /** `open`: started, not sent (yet); `sent`: the delivery went out. */
    state: z.enum(FORM_SUBMISSION_STATES),
    /** The delivery the submission became (levels 3/4: where the browser finds form-values.json). */
    deliveryUuid: z.string().nullable(),
    /** Field name → the value as text (choices joined with ", ", files by name); null when not kept. */
    values: z.record(z.string(), z.string()).nullable(),
  })
  .meta({ id: 'FormSubmission' });
export type FormSubmission = z.infer<typeof FormSubmissionSchema>;

export const FormSubmissionListSchema = z
  .object({
    /** The form's value fields in order: the export's value columns. */
    columns: z.array(z.string()),
    submissions: z.array(FormSubmissionSchema),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  })
  .meta({ id: 'FormSubmissionList' });
export type FormSubmissionList = z.infer<typeof FormSubmissionListSchema>;

/** The export's fixed columns before the value columns (header texts per language: shared/rules/form-export.ts). */
export const FORM_EXPORT_FIXED_COLUMNS = ['time', 'submitter', 'level', 'state'] as const;

/** The download's file name: the form's URL slug and the day. */
export const formSubmissionsFileName = (slug: string, day: string, extension: 'csv' | 'xlsx') => `${slug}-submissions-${day}.${extension}`;
