// Deliveries, bottom layer: the rows, their lookups and the small helpers every stage shares.
// Imports nothing of the stages above it (see server/README.md "Floor plan of deliveries/").
import { type ActivityEntry, type DeliveryFile, type DeliveryUploadFile, type SecurityLevel, type TimeState } from '@shared/contract/deliveries';
import { DAY_MS } from '@shared/contract/reports';
import { sql, type Kysely, type Selectable } from 'kysely';
import { conflict, notFound } from '../core/http-error';
import type { Database } from '../db/schema';
import type { PartLayout } from '../uploads/parts';
import type { UserRow } from '../users/users-repository';
import type { DeliveriesTable, DeliveryFilesTable, DeliveryRecipientsTable } from './tables';

/** A delivery within this much of its end is "expiring soon" (SPEC §4): a weekend plus a working day to react. */
export const EXPIRING_SOON_MS = 3 * 86_400_000;
export type DeliveryRow = Selectable<DeliveriesTable>;
export type RecipientRow = Selectable<DeliveryRecipientsTable>;
export type FileRow = Selectable<DeliveryFilesTable>;

export type Viewer =
  | { kind: 'sender'; delivery: DeliveryRow }
  | { kind: 'recipient'; delivery: DeliveryRow; recipient: RecipientRow }
  | { kind: 'token'; delivery: DeliveryRow; recipient: RecipientRow };

export { linkTokenHash as hashToken, newLinkToken as newToken } from '../security/link-tokens';
export const partKey = (deliveryUuid: string, fileUuid: string, index: number) => `deliveries/${deliveryUuid}/${fileUuid}/${index}`;
export const deliveryPrefix = (deliveryUuid: string) => `deliveries/${deliveryUuid}`;
export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
export const displayName = (u: Pick<UserRow, 'first_name' | 'last_name' | 'email'>) => `${u.first_name} ${u.last_name}`.trim() || u.email;

export function timeStateOf(delivery: Pick<DeliveryRow, 'expires_at'>, now = Date.now()): TimeState {
  if (delivery.expires_at === null) return 'permanent';
  if (delivery.expires_at <= now) return 'expired';
  return delivery.expires_at - now <= EXPIRING_SOON_MS ? 'expiringSoon' : 'valid';
}

export async function activity(
  db: Kysely<Database>,
  deliveryId: number,
  kind: ActivityEntry['kind'],
  options: { actor?: string | null; recipientId?: number | null; detail?: string | null; level?: SecurityLevel } = {},
): Promise<void> {
  const now = Date.now();
  // `level`: a download's row also carries the delivery's level and its UTC day (the downloads report, migration 0029).
  const report = options.level === undefined ? { security_level: null, day: null } : { security_level: options.level, day: Math.floor(now / DAY_MS) };
  await db
    .insertInto('delivery_activity')
    .values({ delivery_id: deliveryId, kind, actor: options.actor ?? null, recipient_id: options.recipientId ?? null, detail: options.detail ?? null, created_at: now, ...report })
    .execute();
}

export async function findDelivery(db: Kysely<Database>, deliveryUuid: string): Promise<DeliveryRow | undefined> {
  if (!isUuid(deliveryUuid)) return undefined;
  return db.selectFrom('deliveries').selectAll().where('uuid', '=', deliveryUuid).executeTakeFirst();
}

/** The caller's own draft (sender only): anything else is 404; a sent one is 409. */
export async function ownDraft(db: Kysely<Database>, user: UserRow, deliveryUuid: string): Promise<DeliveryRow> {
  const delivery = await findDelivery(db, deliveryUuid);
  if (!delivery || delivery.sender_id !== user.id || delivery.status === 'deleted') throw notFound('Delivery not found');
  if (delivery.status !== 'draft') throw conflict('The delivery was sent already; it cannot change');
  return delivery;
}

export async function fileOf(db: Kysely<Database>, delivery: DeliveryRow, fileId: string): Promise<FileRow> {
  if (!isUuid(fileId)) throw notFound('File not found');
  const file = await db.selectFrom('delivery_files').selectAll().where('uuid', '=', fileId).where('delivery_id', '=', delivery.id).executeTakeFirst();
  if (!file) throw notFound('File not found');
  return file;
}

export const toWireFile = (f: FileRow): DeliveryFile => ({
  fileId: f.uuid,
  name: f.name,
  size: Number(f.size),
  mimeType: f.mime_type,
  status: f.status as DeliveryFile['status'],
  encrypted: f.encrypted === 1,
  scanState: f.scan_state as DeliveryFile['scanState'],
});
export const toUploadFile = (f: FileRow): DeliveryUploadFile => ({
  ...toWireFile(f),
  partSize: f.part_size,
  partCount: f.part_count,
  ...(f.leading_bytes ? { leadingBytes: f.leading_bytes } : {}),
});

/** The file's part layout for the shared upload helpers (server/uploads). */
export const layoutOf = (file: Pick<FileRow, 'size' | 'part_size' | 'part_count' | 'leading_bytes'>): PartLayout => ({
  size: Number(file.size),
  partSize: file.part_size,
  partCount: file.part_count,
  leadingBytes: file.leading_bytes,
});

/**
 * A recipient counts as registered once the account has proven its address (SPEC §6): an account an
 * administrator made and nobody has confirmed yet is still reached as an external recipient, so the
 * chips, the detail page and the notification mail say the same.
 */
export const isRegisteredRecipient = (user: Pick<UserRow, 'email_verified'> | undefined): boolean => user?.email_verified === 1;

export async function usersByEmail(db: Kysely<Database>, emails: string[]): Promise<Map<string, UserRow>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, 'in', emails)
    .execute();
  return new Map(rows.map((u) => [u.email.toLowerCase(), u]));
}
