// SPEC §4 classification and file status of a plain room's file or folder (issue 31 §1): stored
// on the row, each change logged with its activity type (set / changed / deleted or removed).
import type { RoomActivityKind } from '@shared/contract/room-files';
import type { RoomClassification, RoomFileStatus } from '@shared/contract/rooms';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { recordActivity, type ActivityItem } from './activity';
import { requireRoomKind } from './room-kind';
import type { RoomRow } from './roles';

/** The activity type of a change from `before` to `after` (both not equal), per SPEC §4's names. */
function changeKind(area: 'classification' | 'status', before: string, after: string): RoomActivityKind {
  if (before === 'none') return `${area}_set`;
  if (after === 'none') return area === 'classification' ? 'classification_deleted' : 'status_removed';
  return `${area}_changed`;
}

export interface LabelInput {
  classification?: RoomClassification | undefined;
  status?: RoomFileStatus | undefined;
}

/**
 * Applies the asked classification and status to a file or folder row (plain rooms only: a Secure
 * room keeps them in the signed file metadata, 409 `encryptedRoom`) and logs each real change; the
 * activity detail is the new value (the old one for a removal). Answers the row's values after it.
 */
export async function applyLabels(
  db: Kysely<Database>,
  table: 'room_files' | 'room_folders',
  row: { id: number; classification: string; file_status: string },
  input: LabelInput,
  actor: { id: number | null; email: string },
  item: ActivityItem & { room: RoomRow },
): Promise<{ classification: string; file_status: string }> {
  // Only the two values: the caller merges the answer into its updated row.
  const unchanged = { classification: row.classification, file_status: row.file_status };
  if (input.classification === undefined && input.status === undefined) return unchanged;
  requireRoomKind(item.room, 'plain', 'Classification and status of a Secure room’s file are part of its signed metadata');
  const classification = input.classification ?? row.classification;
  const fileStatus = input.status ?? row.file_status;
  if (classification === row.classification && fileStatus === row.file_status) return unchanged;
  await db.updateTable(table).set({ classification, file_status: fileStatus }).where('id', '=', row.id).execute();
  if (classification !== row.classification) {
    const kind = changeKind('classification', row.classification, classification);
    await recordActivity(db, kind, actor, item, classification === 'none' ? row.classification : classification);
  }
  if (fileStatus !== row.file_status) {
    await recordActivity(db, changeKind('status', row.file_status, fileStatus), actor, item, fileStatus === 'none' ? row.file_status : fileStatus);
  }
  return { classification, file_status: fileStatus };
}
