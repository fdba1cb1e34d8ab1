import type { Language } from '@shared/contract/constants';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { roleNamesOf, UserExistsError, type UserRow } from './users-repository';

/**
 * Submitter accounts: the sending accounts of people without an account — the submit box's
 * partners and the anonymous submitters of level 3/4 forms. ROLE_SUBMITTER only, unlicensed, and a
 * password hash that is no Argon2 hash, so nobody signs in with it. At levels 3/4 their SecuPass
 * is a throwaway one made by the submitter's browser (submit-box/submitter-keys.ts).
 */
export const SUBMITTER_PASSWORD_HASH = '!submitter';

/** An account made for a submitter (ROLE_SUBMITTER only, no password). */
export function isSubmitterOnly(user: UserRow): boolean {
  const roles = roleNamesOf(user);
  return user.password_hash === SUBMITTER_PASSWORD_HASH && roles.length === 1 && roles[0] === 'ROLE_SUBMITTER';
}

/** Makes a submitter account; UserExistsError when the address has one already. */
export function createSubmitterAccount(app: FastifyInstance, input: { email: string; language: Language; firstName?: string }): Promise<UserRow> {
  const { email, language, firstName } = input;
  return app.users.create({ username: email, email, passwordHash: SUBMITTER_PASSWORD_HASH, roles: ['ROLE_SUBMITTER'], language, emailVerified: true, licensed: false, ...(firstName ? { firstName } : {}) });
}

/** The address's own account (possibly disabled: the caller decides), else a submitter account made for it. */
export async function submitterAccount(app: FastifyInstance, email: string, language: Language): Promise<UserRow> {
  const find = () => app.db.selectFrom('users').selectAll().where(sql`lower(email)`, '=', email).executeTakeFirst();
  const existing = await find();
  if (existing) return existing;
  try {
    return await createSubmitterAccount(app, { email, language });
  } catch (error) {
    if (!(error instanceof UserExistsError)) throw error;
    const raced = await find();
    if (!raced) throw error;
    return raced;
  }
}
