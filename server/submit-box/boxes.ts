import { randomUUID } from 'node:crypto';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { SECURITY_LEVEL_ORDER, SECURITY_LEVEL_TABLE, isE2eLevel } from '@shared/contract/security-levels';
import { SUBMIT_BOX_ERRORS, SUBMIT_BOX_SETTING_KEY, type SubmitBoxError, SUBMIT_BOX_WEB_LINKS, type SubmitBox, type SubmitBoxUpdate } from '@shared/contract/submit-box';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { badRequest, HttpError } from '../core/http-error';
import { roleNamesOf, type UserRow } from '../users/users-repository';
import type { SubmitBoxesTable } from './tables';
import './tables';

export type SubmitBoxRow = Selectable<SubmitBoxesTable>;

/** A new box takes the plain levels (our decision: the owner opts into levels 3/4 once a SecuPass exists). */
const DEFAULT_LEVELS: readonly SecurityLevel[] = SECURITY_LEVEL_ORDER.filter((level) => !isE2eLevel(level));

export const submitBoxError = (status: number, error: SubmitBoxError, message: string, metadata: Record<string, unknown> = {}) =>
  new HttpError(status, error, message, metadata);

export function levelsOf(row: Pick<SubmitBoxRow, 'allowed_levels'>): SecurityLevel[] {
  try {
    const parsed: unknown = JSON.parse(row.allowed_levels);
    return Array.isArray(parsed) ? SECURITY_LEVEL_ORDER.filter((l) => parsed.includes(l)) : [];
  } catch {
    return [];
  }
}

export async function globallyEnabled(app: FastifyInstance): Promise<boolean> {
  return (await app.settings.get<boolean>(SUBMIT_BOX_SETTING_KEY)) !== false;
}

async function ownerHasPassphrase(app: FastifyInstance, ownerId: number): Promise<boolean> {
  return (await app.secupass.statesOf([ownerId])).get(ownerId) === 'active';
}

/** The owner's box; the first read creates it inactive. */
export async function ownBox(app: FastifyInstance, owner: UserRow): Promise<SubmitBoxRow> {
  const found = await app.db.selectFrom('submit_boxes').selectAll().where('user_id', '=', owner.id).executeTakeFirst();
  if (found) return found;
  await app.db
    .insertInto('submit_boxes')
    .values({ user_id: owner.id, uuid: randomUUID(), active: 0, allowed_levels: JSON.stringify(DEFAULT_LEVELS), validity_days: null, updated_at: Date.now() })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return app.db.selectFrom('submit_boxes').selectAll().where('user_id', '=', owner.id).executeTakeFirstOrThrow();
}

export async function toWireBox(app: FastifyInstance, row: SubmitBoxRow): Promise<SubmitBox> {
  return {
    boxUuid: row.uuid,
    active: row.active === 1,
    allowedLevels: levelsOf(row),
    validityDays: row.validity_days,
    notifyOnSubmit: row.notify === 1,
    globallyDisabled: !(await globallyEnabled(app)),
    ownerHasPassphrase: await ownerHasPassphrase(app, row.user_id),
    link: `${app.config.publicUrl}${SUBMIT_BOX_WEB_LINKS.box(row.uuid)}`,
  };
}

export async function updateBox(app: FastifyInstance, owner: UserRow, input: SubmitBoxUpdate): Promise<SubmitBoxRow> {
  const box = await ownBox(app, owner);
  const levels = input.allowedLevels === undefined ? levelsOf(box) : SECURITY_LEVEL_ORDER.filter((l) => input.allowedLevels!.includes(l));
  const active = input.active ?? box.active === 1;
  // Levels 3/4 encrypt to the owner's SecuPass keys: without an active one they cannot be chosen (SPEC §8).
  if (input.allowedLevels !== undefined && levels.some(isE2eLevel) && !(await ownerHasPassphrase(app, owner.id))) {
    throw submitBoxError(409, SUBMIT_BOX_ERRORS.recipientWithoutPassphrase, 'Encrypted levels need your passphrase: create one in your settings first', { field: 'allowedLevels' });
  }
  // An active box must take at least one level; an inactive one may keep an empty choice.
  if (active && levels.length === 0) throw badRequest('Choose at least one security level for an active submit box', { field: 'allowedLevels', reason: 'empty' });
  await app.db
    .updateTable('submit_boxes')
    .set({
      active: active ? 1 : 0,
      allowed_levels: JSON.stringify(levels),
      validity_days: input.validityDays === undefined ? box.validity_days : input.validityDays,
      ...(input.notifyOnSubmit === undefined ? {} : { notify: input.notifyOnSubmit ? 1 : 0 }),
      updated_at: Date.now(),
    })
    .where('user_id', '=', owner.id)
    .execute();
  return ownBox(app, owner);
}

export interface OpenBox {
  box: SubmitBoxRow;
  owner: UserRow;
  /** The default: the highest usable level. */
  level: SecurityLevel;
  /** Every level a submission may take now, lowest first (the partner may choose one, issue 33 §2). */
  levels: SecurityLevel[];
}

/**
 * A box that takes submissions now, with the level they get: the highest level the owner allows
 * and the system allows; levels 3/4 only while the owner has an active SecuPass (the partner's
 * browser encrypts to its keys). Throws the §8 class otherwise.
 */
export async function openBox(app: FastifyInstance, box: SubmitBoxRow | undefined): Promise<OpenBox> {
  if (!box) throw submitBoxError(404, SUBMIT_BOX_ERRORS.notFound, 'This submit box does not exist; please check the link');
  const owner = await app.users.findById(box.user_id);
  if (!owner || owner.disabled === 1 || !roleNamesOf(owner).includes('ROLE_SUBMITBOX_OWNER')) {
    throw submitBoxError(404, SUBMIT_BOX_ERRORS.notFound, 'This submit box does not exist; please check the link');
  }
  if (!(await globallyEnabled(app))) throw submitBoxError(409, SUBMIT_BOX_ERRORS.globallyDisabled, 'Submit boxes are switched off on this server');
  if (box.active !== 1) throw submitBoxError(409, SUBMIT_BOX_ERRORS.notEnabled, 'This submit box is not active');
  const config = await app.settings.deliverySendConfig();
  const allowed = levelsOf(box).filter((level) => SECURITY_LEVEL_TABLE.some((info) => info.wire === level && config[info.allowFlag]));
  if (allowed.length === 0) throw submitBoxError(409, SUBMIT_BOX_ERRORS.noAllowedLevel, 'This submit box has no security level it may use');
  const usable = allowed.some(isE2eLevel) && (await ownerHasPassphrase(app, owner.id)) ? allowed : allowed.filter((level) => !isE2eLevel(level));
  if (usable.length > 0) return { box, owner, level: usable[usable.length - 1]!, levels: usable };
  throw submitBoxError(409, SUBMIT_BOX_ERRORS.recipientWithoutPassphrase, 'This submit box takes encrypted submissions only, and its owner has no passphrase yet');
}

export async function boxByUuid(app: FastifyInstance, boxUuid: string): Promise<SubmitBoxRow | undefined> {
  return app.db.selectFrom('submit_boxes').selectAll().where('uuid', '=', boxUuid).executeTakeFirst();
}

export async function boxOfOwner(app: FastifyInstance, ownerId: number): Promise<SubmitBoxRow | undefined> {
  return app.db.selectFrom('submit_boxes').selectAll().where('user_id', '=', ownerId).executeTakeFirst();
}

export function ownerName(owner: UserRow): string {
  const name = [owner.first_name, owner.last_name].filter((p) => p && p.trim() !== '').join(' ');
  return name || owner.email;
}
