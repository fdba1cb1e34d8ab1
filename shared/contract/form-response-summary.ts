import { z } from 'zod';

/**
 * A form's response summary (issue 33 §3): per choice field (checkbox, radio, dropdown) the count
 * of each option, per rating field the count of each star value and the average, per number field
 * the count, smallest, average and largest value. `GET /forms/{formUuid}/summary` (the form's
 * creator, editors and administrators, like its submissions list) answers it for levels 1/2 from
 * the values the server keeps; for levels 3/4 the browser computes the same shape from the
 * decrypted submissions (shared/rules/form-summary.ts, one code for both).
 */
export const SUMMARY_FIELD_TYPES = ['checkbox', 'radio', 'dropdown', 'rating', 'number'] as const;

export const SummaryCountSchema = z.object({ value: z.string(), count: z.number().int() }).meta({ id: 'FormSummaryCount' });

export const SummaryFieldSchema = z
  .object({
    name: z.string(),
    type: z.enum(SUMMARY_FIELD_TYPES),
    /** Submissions with a value for this field (a checkbox counts once however many it ticks). */
    answered: z.number().int(),
    /** Choices: every option in the form's order; rating: 1 … ratingMax; number: empty. */
    counts: z.array(SummaryCountSchema),
    /** Rating and number; null without answers (and for choices). */
    average: z.number().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
  })
  .meta({ id: 'FormSummaryField' });
export type SummaryField = z.infer<typeof SummaryFieldSchema>;

export const FormResponseSummarySchema = z
  .object({
    /** Submissions counted (levels 1/2 with kept values; the browser: those it decrypted). */
    total: z.number().int(),
    fields: z.array(SummaryFieldSchema),
  })
  .meta({ id: 'FormResponseSummary' });
export type FormResponseSummary = z.infer<typeof FormResponseSummarySchema>;
