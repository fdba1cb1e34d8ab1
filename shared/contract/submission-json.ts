import { z } from 'zod';
import { LanguageSchema } from './user';

/**
 * The head of `submission.json` (docs/flows.md): everything but the fields. Its own module so the
 * submit answer (./form-e2e.ts, imported by ./forms.ts) can carry it without an import cycle
 * through ./flows.ts. At levels 3/4 the server answers it to the submitter's browser, which adds
 * the fields with `buildSubmissionJson` (shared/rules/submission-json.ts) and encrypts the file.
 */

/** The one file name of the machine-readable JSON in a process-service form's delivery. */
export const SUBMISSION_JSON_FILE = 'submission.json';
/** `schema` of the JSON; a change that is not purely additive takes a new version. */
export const SUBMISSION_JSON_SCHEMA_ID = 'https://kuvert.example/schemas/form-submission/v1.json';
export const SUBMISSION_JSON_VERSION = 1;

export const SubmissionJsonHeadSchema = z
  .object({
    form: z.object({ uuid: z.string(), name: z.string(), url: z.string() }),
    submission: z.object({
      deliveryUuid: z.string(),
      /** ISO 8601 (UTC) time the submission was started. */
      submittedAt: z.string(),
      language: LanguageSchema,
      /** 1–4 (SPEC §4). */
      securityLevel: z.number().int().min(1).max(4),
      /** The signed-in submitter of an only-authenticated form; null for anonymous ones. */
      submitter: z.string().nullable(),
      recipients: z.array(z.string()),
    }),
  })
  .meta({ id: 'SubmissionJsonHead' });
export type SubmissionJsonHead = z.infer<typeof SubmissionJsonHeadSchema>;
