// Room notices (issue 32): the mails to registered people about a room — added to it, a member
// waiting for a Secure room's key (to its OWNERs), the key granted (to the member). Each goes out
// in the recipient's language; a Secure room's name is sealed, so its mails name no room.
// A notice is a courtesy: a failed mail is logged, the change it reports stands. Each mail is also
// kept as an in-app notice for the bell (notice-inbox.ts).
import { reduceLanguage } from '@shared/contract/constants';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { MailTemplateData, MailTemplateName } from '../../mail/templates';
import type { UserRow } from '../../users/users-repository';
import { recordNotice } from './notice-inbox';
import { isSecureRoom, roomIsOfKind, roomKindColumn } from './room-kind';
import type { RoomRow } from './roles';

type Person = Pick<UserRow, 'email' | 'first_name' | 'last_name' | 'language'>;

const nameOf = (u: Pick<UserRow, 'email' | 'first_name' | 'last_name'>) => `${u.first_name} ${u.last_name}`.trim() || u.email;

/** The web page of the room: a Secure room opens under Secure rooms, a plain one under Datarooms. */
export const roomWebLink = (app: FastifyInstance, room: Pick<RoomRow, 'uuid' | 'encrypted'>): string =>
  `${app.config.publicUrl}${isSecureRoom(room) ? '/secure-rooms' : '/datarooms'}/${room.uuid}`;

async function notice<K extends MailTemplateName>(app: FastifyInstance, log: FastifyBaseLogger, to: Person, template: K, data: MailTemplateData[K]): Promise<void> {
  await app.mailer
    .send({ to: to.email, template, language: reduceLanguage(to.language), data })
    .catch((err: unknown) => log.error({ err, template }, 'room notice mail failed'));
}

/** A registered person was given access to a room they could not see before. */
export async function noticeAddedToRoom(app: FastifyInstance, log: FastifyBaseLogger, room: RoomRow, actor: Person, target: Person & Pick<UserRow, 'id'>, role: string): Promise<void> {
  await recordNotice(app, log, target.id, { kind: 'roomAdded', room: { uuid: room.uuid, secure: isSecureRoom(room), name: room.name }, actorName: nameOf(actor), role });
  await notice(app, log, target, 'roomAdded', { actorName: nameOf(actor), roomName: isSecureRoom(room) ? null : room.name, role, link: roomWebLink(app, room) });
}

/** An OWNER granted a member the Secure room's key. */
export async function noticeKeyGranted(app: FastifyInstance, log: FastifyBaseLogger, room: RoomRow, actor: Person, target: Person & Pick<UserRow, 'id'>): Promise<void> {
  await recordNotice(app, log, target.id, { kind: 'roomKeyGranted', room: { uuid: room.uuid, secure: true, name: null }, actorName: nameOf(actor) });
  await notice(app, log, target, 'roomKeyGranted', { actorName: nameOf(actor), link: roomWebLink(app, room) });
}

/**
 * After `member` set a SecuPass: every Secure room they belong to waits for an OWNER's grant to the
 * new key, so each room's OWNERs (the member aside) are told, one mail per room.
 */
export async function noticeKeyWaiting(app: FastifyInstance, log: FastifyBaseLogger, member: Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name'>): Promise<void> {
  const rooms = await app.db
    .selectFrom('room_access')
    .innerJoin('data_rooms', 'data_rooms.id', 'room_access.room_id')
    .select(['data_rooms.id', 'data_rooms.uuid', roomKindColumn('data_rooms')])
    .distinct()
    .where('room_access.user_id', '=', member.id)
    .where(roomIsOfKind('data_rooms', 'secure'))
    .where('data_rooms.deleted_at', 'is', null)
    .execute();
  for (const room of rooms) {
    const owners = await app.db
      .selectFrom('room_access')
      .innerJoin('users', 'users.id', 'room_access.user_id')
      .select(['users.id', 'users.email', 'users.first_name', 'users.last_name', 'users.language'])
      .where('room_access.room_id', '=', room.id)
      .where('room_access.folder_id', 'is', null)
      .where('room_access.role', '=', 'OWNER')
      .where('users.id', '!=', member.id)
      .where('users.disabled', '=', 0)
      .execute();
    for (const owner of owners) {
      await recordNotice(app, log, owner.id, { kind: 'roomKeyWaiting', room: { uuid: room.uuid, secure: true, name: null }, actorName: nameOf(member) });
      await notice(app, log, owner, 'roomKeyWaiting', { memberName: nameOf(member), memberEmail: member.email, link: roomWebLink(app, room) });
    }
  }
}
