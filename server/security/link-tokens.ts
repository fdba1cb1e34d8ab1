// Mailed link tokens (delivery links, delivery signup, data-room invitations): the link carries
// the token, the database only its SHA-256, so a read of the tables opens nothing.
import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes (256 bits; DESIGN §2 asks ≥ 128), base64url. */
const LINK_TOKEN_BYTES = 32;

export const linkTokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
export const newLinkToken = (): string => randomBytes(LINK_TOKEN_BYTES).toString('base64url');
