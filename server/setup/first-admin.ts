import { CONFIG_KEYS } from '@shared/contract/config';
import type { FastifyInstance } from 'fastify';
import { generateStrongPassword } from '../security/password-policy';
import { hashPassword } from '../users/passwords';
import { ADMIN_ROLES } from '../users/users-repository';

/** Address of a generated first administrator (no real mailbox behind it). */
export const GENERATED_ADMIN_EMAIL = 'admin@kuvert.localhost';

export interface FirstAdminResult {
  /** Set only when this call created the administrator: the credentials to print once. */
  created?: { email: string; password: string; generated: boolean };
}

export interface FirstAdminOptions {
  email?: string;
  /** NB: secret, never logged except the one time it was generated and must be shown. */
  password?: string;
  /** Without credentials: generate a password (true, `npm start`) or leave it to the wizard (false). */
  generateIfMissing: boolean;
}

/**
 * The non-interactive first start (DESIGN §9): when no administrator exists, creates
 * one from the given credentials (or generated ones) and marks the installation wizard
 * finished. With neither, the wizard at /webui/wizard does it.
 */
export async function ensureFirstAdmin(app: FastifyInstance, options: FirstAdminOptions): Promise<FirstAdminResult> {
  if ((await app.users.countAdmins()) > 0) return {};
  let email = options.email;
  let password = options.password;
  const generated = !email || !password;
  if (generated) {
    if (!options.generateIfMissing) return {};
    email = GENERATED_ADMIN_EMAIL;
    password = generateStrongPassword();
  }
  await app.users.create({
    username: email!,
    email: email!,
    passwordHash: await hashPassword(password!),
    firstName: 'Admin',
    roles: ADMIN_ROLES,
    emailVerified: true,
  });
  await app.settings.set({ [CONFIG_KEYS.wizardFinished]: true });
  return { created: { email: email!, password: password!, generated } };
}
