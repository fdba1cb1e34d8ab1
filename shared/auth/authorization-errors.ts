import { AUTHORIZATION_ERRORS_HEADER, AuthorizationErrorEntrySchema, type AuthorizationErrorEntry } from '@shared/contract/errors';
import { z } from 'zod';

const EntryListSchema = z.array(AuthorizationErrorEntrySchema);

/** Parses the `authorization-errors` header (a JSON list); null when absent or unreadable. */
export function parseAuthorizationErrors(headers: Headers | undefined): AuthorizationErrorEntry[] | null {
  const raw = headers?.get(AUTHORIZATION_ERRORS_HEADER);
  if (!raw) return null;
  try {
    const parsed = EntryListSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Login failed with authorization codes (SPEC §4, §8); the screens react to `entries`. */
export class LoginAuthorizationError extends Error {
  override readonly name = 'LoginAuthorizationError';
  readonly entries: AuthorizationErrorEntry[];
  override readonly cause: unknown;

  constructor(entries: AuthorizationErrorEntry[], cause: unknown) {
    super(`Login refused: ${entries.map((e) => e.authorizationError).join(', ')}`);
    this.entries = entries;
    this.cause = cause;
  }

  /** Whether the list holds the given code. */
  has(code: number): boolean {
    return this.entries.some((entry) => entry.authorizationError === code);
  }
}
