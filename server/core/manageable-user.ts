import type { FastifyInstance } from 'fastify';
import { mayManageAccountOf, type UserRow } from '../users/users-repository';
import { accessDenied, notFound } from './http-error';

/**
 * The account an administrator's call is about (`userUuid`): 404 when there is none, 403 with
 * `refusal` when the actor may not manage it (a user administrator and an administrator's account).
 */
export async function manageableUser(app: FastifyInstance, actor: UserRow, userUuid: string, refusal: string): Promise<UserRow> {
  const subject = await app.users.findByUuid(userUuid);
  if (!subject) throw notFound('No such user');
  if (!mayManageAccountOf(actor, subject)) throw accessDenied(refusal);
  return subject;
}
