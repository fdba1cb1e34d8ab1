import { CONFIG_KEYS } from '@shared/contract/config';
import type { FastifyInstance } from 'fastify';
import { withStartLock } from '../db/start-lock';
import { hashPassword } from '../users/passwords';
import { ADMIN_ROLES } from '../users/users-repository';
import { hashSetupCode, newSetupCode, SETUP_CODE_HASH_KEY, WIZARD_PATH } from './setup-code';

export type FirstAdminResult =
  /** This call created the administrator from the given credentials. */
  | { created: { email: string } }
  /** No administrator and no credentials: the installation wizard at `wizardPath` makes one, for whoever has `setupCode` (printed at the start; NB: secret). */
  | { wizardPath: string; setupCode: string }
  /** An administrator exists: nothing to do. */
  | Record<string, never>;

export interface FirstAdminOptions {
  email?: string | undefined;
  /** NB: secret, never logged. */
  password?: string | undefined;
}

/**
 * The first start (DESIGN §9, issue 17 §1). When no administrator exists: with
 * `KUVERT_ADMIN_EMAIL`/`KUVERT_ADMIN_PASSWORD` (or the flags) it creates one and marks the
 * installation wizard finished (scripts, CI); without them it leaves `ftapi.wizard.finished`
 * false, so the wizard at /webui/wizard asks organisation, first administrator and mail — no
 * flag needed, and no password is ever generated or printed. Each such start makes a new setup
 * code (see setup-code.ts) that the wizard asks for; the start prints it.
 * Under the start lock: of servers started together on an empty database one creates the
 * administrator, the others then find it (issue 29 §2: they exited with UserExistsError).
 */
export async function ensureFirstAdmin(app: FastifyInstance, options: FirstAdminOptions): Promise<FirstAdminResult> {
  return withStartLock(app.db, () => firstAdminUnlocked(app, options));
}

async function firstAdminUnlocked(app: FastifyInstance, options: FirstAdminOptions): Promise<FirstAdminResult> {
  if ((await app.users.countAdmins()) > 0) return {};
  const { email, password } = options;
  if (!email || !password) {
    // An earlier version may have marked it finished; without an administrator the wizard must run.
    const setupCode = newSetupCode();
    await app.settings.set({ [CONFIG_KEYS.wizardFinished]: false, [SETUP_CODE_HASH_KEY]: hashSetupCode(setupCode) });
    return { wizardPath: WIZARD_PATH, setupCode };
  }
  await app.users.create({
    username: email,
    email,
    passwordHash: await hashPassword(password),
    firstName: 'Admin',
    roles: ADMIN_ROLES,
    emailVerified: true,
  });
  await app.settings.set({ [CONFIG_KEYS.wizardFinished]: true, [SETUP_CODE_HASH_KEY]: null });
  return { created: { email } };
}
