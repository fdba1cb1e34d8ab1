import { BackendErrorSchema } from '@shared/contract/errors';
import { z } from 'zod';

/** Declares the SPEC §8 error object as the answer for each of these statuses. */
export const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, BackendErrorSchema]));
export const noContent = z.null().describe('No content');
/**
 * Sending, uploading and drafting need the sender role (SPEC §6); delivery-signup accounts
 * (ROLE_SENDER_EXTERNAL) may send replies only, which senders.ts enforces on the recipients.
 */
export const SENDER = { roles: ['ROLE_SENDER', 'ROLE_SENDER_EXTERNAL'] } as const;
