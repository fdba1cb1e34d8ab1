import type { TermsConsent } from '@shared/contract/terms';
import { TERMS_SETTING_KEYS } from '@shared/contract/terms';
import { reduceLanguage } from '@shared/contract/constants';
import type { FastifyInstance } from 'fastify';
import { conflict } from '../core/http-error';
import { textInLanguage } from '../settings/defaults';
import type { UserRow } from '../users/users-repository';

/** The terms in force and this user's agreement (shared/contract/terms.ts). */
export async function termsConsentOf(app: FastifyInstance, user: UserRow): Promise<TermsConsent> {
  const all = await app.settings.getAll();
  const version = Number(all[TERMS_SETTING_KEYS.version] ?? 0);
  const acceptedVersion = user.terms_accepted_version;
  return {
    version,
    acceptedVersion,
    acceptedAt: user.terms_accepted_at === null ? null : new Date(Number(user.terms_accepted_at)).toISOString(),
    required: version > 0 && (acceptedVersion ?? 0) < version,
    text: textInLanguage(all, TERMS_SETTING_KEYS.text, reduceLanguage(user.language)),
  };
}

/**
 * Stores the agreement to `version` with the time, and an audit entry, in one transaction. The
 * version must be the one in force: a user who read an older page is asked to read the new one
 * (409) rather than being recorded as agreeing to something else.
 */
export async function acceptTerms(app: FastifyInstance, user: UserRow, version: number): Promise<TermsConsent> {
  const current = Number(await app.settings.get<number>(TERMS_SETTING_KEYS.version));
  if (current === 0 || version !== current) throw conflict(current === 0 ? 'No terms of use are in force' : `The terms of use changed to version ${current}: read them again`);
  const at = Date.now();
  await app.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ terms_accepted_version: version, terms_accepted_at: at }).where('id', '=', user.id).execute();
    await app.auditLog.record({ actorUserId: user.id, action: 'user.termsAccepted', subjectUserId: user.id, details: { version } }, trx);
  });
  return termsConsentOf(app, { ...user, terms_accepted_version: version, terms_accepted_at: at });
}
