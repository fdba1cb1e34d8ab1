import { z } from 'zod';

/**
 * Conditional questions, number and rating fields of web forms (issue 33 §3). Every setting has a
 * default, so a form saved before them loads unchanged (no condition: always shown).
 *
 * - `condition` (on a custom field or a process page): shown only when an earlier field — on an
 *   earlier page, for a page — `equals` a value, is `oneOf` several, or `filled`. A checkbox matches
 *   when one of its chosen options does. A hidden field is not required, and a value sent for it is
 *   dropped (not stored, not in submission.json, the webhook or the export). The rules
 *   (shared/rules/form-conditions.ts) run in the browser (fields vanish live) and on the server.
 * - `number`: a decimal (`.`), optionally `integer`, between `min` and `max`, on `step` from `min`
 *   (or 0). The value travels as text, like every other field's.
 * - `rating`: a whole number of stars from 1 to `ratingMax` (5 or 10).
 */
export const FIELD_CONDITION_OPERATORS = ['equals', 'oneOf', 'filled'] as const;
export type FieldConditionOperator = (typeof FIELD_CONDITION_OPERATORS)[number];

export const FieldConditionSchema = z
  .object({
    /** The earlier field's name. */
    field: z.string().max(200),
    operator: z.enum(FIELD_CONDITION_OPERATORS),
    /** `equals`: one value; `oneOf`: one or more; `filled`: none. */
    values: z.array(z.string().max(1000)).max(200).default([]),
  })
  .strict()
  .meta({ id: 'FormFieldCondition' });
export type FieldCondition = z.infer<typeof FieldConditionSchema>;

export const RATING_SCALES = [5, 10] as const;

/** Spread into a custom field's and a process page's shape. */
export const CONDITION_SHAPE = {
  condition: FieldConditionSchema.nullable().default(null),
};

/** Spread into a custom field's shape. */
export const NUMBER_RATING_SHAPE = {
  /** Number: the smallest and largest value allowed, or null. */
  min: z.number().nullable().default(null),
  max: z.number().nullable().default(null),
  /** Number: the values allowed lie on steps of this size from `min` (or 0); null: any. */
  step: z.number().nullable().default(null),
  /** Number: whole numbers only. */
  integer: z.boolean().default(false),
  /** Rating: the number of stars. */
  ratingMax: z.union([z.literal(RATING_SCALES[0]), z.literal(RATING_SCALES[1])]).default(5),
};
