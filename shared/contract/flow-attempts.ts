import { z } from 'zod';

/**
 * The webhook's delivery log of a form (issue 33 §3), on its process-service tab, for those who may
 * edit the form (creator, editors, administrators with ROLE_SECUFORMS or ROLE_ADMIN):
 *
 * | Call | What |
 * |---|---|
 * | GET /forms/{formUuid}/process-service/attempts | the last FLOW_ATTEMPTS_KEPT attempts, newest first |
 * | POST /forms/{formUuid}/process-service/test | posts a test body (`test: true`, event `form.test`), signed like the others, now; answers the attempt |
 * | POST /forms/{formUuid}/process-service/hand-offs/{handOffId}/send-again | queues a failed or delivered hand-off of this form again |
 *
 * An attempt keeps no part of the receiver's answer but its status code.
 */
export const FLOW_ATTEMPTS_KEPT = 50;

export const FlowAttemptSchema = z
  .object({
    /** Epoch ms the POST started. */
    at: z.number(),
    /** The hand-off it carried; null for a test. */
    handOffId: z.string().nullable(),
    test: z.boolean(),
    /** The receiver's HTTP status; null when it could not be reached. */
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    /** Our words for a failure (never the receiver's answer); null on 2xx. */
    error: z.string().nullable(),
    /** The hand-off's state now (null for a test), and when its next attempt is due (pending only). */
    handOffState: z.enum(['waiting', 'pending', 'delivered', 'failed', 'noWebhook']).nullable(),
    nextAttemptAt: z.number().nullable(),
  })
  .meta({ id: 'FlowAttempt' });
export type FlowAttempt = z.infer<typeof FlowAttemptSchema>;

export const FlowAttemptListSchema = z.object({ items: z.array(FlowAttemptSchema) }).meta({ id: 'FlowAttemptList' });
export type FlowAttemptList = z.infer<typeof FlowAttemptListSchema>;

export const FormHandOffParamsSchema = z.object({ formUuid: z.string().max(64), handOffId: z.string().max(64) }).strict();
