import argon2 from 'argon2';

/**
 * Argon2id with the library's defaults (64 MiB, 3 passes): OWASP's recommended
 * family; the parameters travel inside the hash, so raising them later still
 * verifies old hashes.
 */
export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
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
