import { randomBytes } from 'node:crypto';
import { INVITATION_TTL_MS } from '@shared/contract/admin-users';
import { reduceLanguage } from '@shared/contract/constants';
import type { FastifyInstance } from 'fastify';
import { issuePasswordLink } from '../auth-escalation/password-reset';
import { accessDenied, HttpError } from '../core/http-error';
import { releaseStoredFiles } from '../deliveries/stored-files';
import { hashPassword } from '../users/passwords';
import type { RoleName } from '@shared/contract/constants';
import { roleNamesOf, type UserRow } from '../users/users-repository';

/** Access descriptors of delivery keys (deliveries/e2e.ts `DESCRIPTOR_KIND`). */
const DELIVERY_DESCRIPTOR_KIND = 'delivery';

/** 409 with `metadata.reason` (contract `ADMIN_USER_CONFLICTS`). */
export const userConflict = (message: string, reason: string) => new HttpError(409, 'ConflictException', message, { reason });

/** A password nobody knows: invited accounts cannot sign in before the owner sets one. */
/** The roles only an administrator may grant or take (SPEC §6): a user administrator gets 403, creating or editing alike. */
const ADMIN_ONLY_ROLES: readonly RoleName[] = ['ROLE_ADMIN', 'ROLE_ROOT'];
export function assertMayHandOutRoles(actor: Pick<UserRow, 'roles'>, changedRoles: readonly RoleName[]): void {
  if (roleNamesOf(actor).includes('ROLE_ADMIN') || !changedRoles.some((role) => ADMIN_ONLY_ROLES.includes(role))) return;
  throw accessDenied('Only administrators may grant or take ROLE_ADMIN or ROLE_ROOT');
}

export const unusablePasswordHash = () => hashPassword(randomBytes(32).toString('base64url'));

export const displayNameOf = (user: Pick<UserRow, 'first_name' | 'last_name' | 'email'>) =>
  [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;

/**
 * Mails the user a set-password link (a password-reset token valid `INVITATION_TTL_MS`; only its
 * SHA-256 is stored). Following it sets the password and proves the address (password-reset.ts
 * `confirmPasswordReset`). An older unused link stops working.
 */
export async function sendInvitation(app: FastifyInstance, user: UserRow, inviter: UserRow): Promise<void> {
  const link = await issuePasswordLink(app, user.id, INVITATION_TTL_MS, { invitation: true });
  await app.mailer.send({
    to: user.email,
    template: 'userInvitation',
    language: reduceLanguage(user.language),
    data: { link, validDays: INVITATION_TTL_MS / 86_400_000, inviterName: displayNameOf(inviter) },
  });
}

/** Whether another enabled administrator than `userId` exists (the last one is never removed). */
export async function anotherAdminExists(app: FastifyInstance, userId: number): Promise<boolean> {
  const rows = await app.db.selectFrom('users').select(['id', 'roles']).where('id', '!=', userId).where('disabled', '=', 0).execute();
  return rows.some((row) => roleNamesOf(row).includes('ROLE_ADMIN'));
}

/**
 * Disables the account: every session of it (web and add-in) ends in the same transaction, and the
 * next sign-in is refused with authorisation code 8. Re-enabling lets the owner sign in again.
 */
export async function setUserDisabled(app: FastifyInstance, actor: UserRow, subject: UserRow, disabled: boolean): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ disabled: disabled ? 1 : 0, updated_at: Date.now() }).where('id', '=', subject.id).execute();
    if (disabled) await trx.deleteFrom('sessions').where('user_id', '=', subject.id).execute();
    await app.auditLog.record({ actorUserId: actor.id, action: disabled ? 'user.disabled' : 'user.enabled', subjectUserId: subject.id }, trx);
  });
}

/**
 * Deletes the account (the rule, server/README "User administration"): the deliveries the user
 * sent — drafts included — go with their files, recipients, activity, key copies and stored bytes;
 * deliveries the user received stay with their senders (a recipient is an address, so the sender
 * still sees it and its state). Sessions, SecuPass, keys, key copies to the user, contact pins,
 * codes and tokens go by the foreign keys. The audit log keeps its entries (the user's id there
 * becomes empty) and gains `user.deleted` with the address.
 */
export async function deleteUserAccount(app: FastifyInstance, actor: UserRow, subject: UserRow): Promise<{ deliveries: number }> {
  const sent = await app.db.selectFrom('deliveries').select(['uuid']).where('sender_id', '=', subject.id).execute();
  const uuids = sent.map((d) => d.uuid);
  await app.db.transaction().execute(async (trx) => {
    for (let i = 0; i < uuids.length; i += 500) {
      const chunk = uuids.slice(i, i + 500);
      await trx.deleteFrom('access_descriptors').where('resource_kind', '=', DELIVERY_DESCRIPTOR_KIND).where('resource_id', 'in', chunk).execute();
    }
    await app.auditLog.record(
      {
        actorUserId: actor.id,
        action: 'user.deleted',
        subjectUserId: subject.id,
        details: { email: subject.email, username: subject.username, deliveries: uuids.length },
      },
      trx,
    );
    // Their stored bytes leave the storage report's totals; the rows follow by ON DELETE CASCADE:
    // deliveries, their recipients, files, parts, activity and signups.
    await releaseStoredFiles(trx, { senderId: subject.id });
    await trx.deleteFrom('users').where('id', '=', subject.id).execute();
  });
  // The bytes after the rows: a failure here leaves unreachable bytes, never rows without bytes.
  for (const uuid of uuids) {
    try {
      await app.blobs.deletePrefix(`deliveries/${uuid}`);
    } catch (err) {
      app.log.error({ err, deliveryUuid: uuid }, 'could not delete the files of a deleted user’s delivery');
    }
  }
  return { deliveries: uuids.length };
}
