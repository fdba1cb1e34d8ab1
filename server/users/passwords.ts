import argon2, { type HashOptions } from 'argon2';

export type PasswordHashing = 'standard' | 'minimum';

/**
 * Argon2id, OWASP's recommended family. `standard` is the library's default (64 MiB, 3 passes);
 * `minimum` is OWASP's published minimum (19 MiB, 2 passes, 1 lane) for small machines. The
 * parameters travel inside each hash, so either setting verifies hashes made under the other.
 */
const COSTS: Record<PasswordHashing, Pick<HashOptions, 'memoryCost' | 'timeCost' | 'parallelism'>> = {
  standard: {},
  minimum: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
};

// One process runs one configuration (KUVERT_PASSWORD_HASHING); the app sets it at start, so the
// many callers (sign-up, resets, links, invitations) need not carry the setting around.
let cost: PasswordHashing = 'standard';
export function setPasswordHashing(setting: PasswordHashing): void {
  cost = setting;
}

export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, ...COSTS[cost] });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // a malformed stored hash never lets anyone in
  }
}

/** A hash of nothing: unknown users are checked against it so timing does not reveal accounts. */
let decoyHash: Promise<string> | undefined;
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword('kuvert-decoy-password-never-matches');
  await verifyPassword(await decoyHash, password);
  return false;
}
