// The stored classification and file status read back as SPEC §4 values (an unknown one as `none`).
import { ROOM_CLASSIFICATIONS, ROOM_FILE_STATUSES, type RoomClassification, type RoomFileStatus } from '@shared/contract/rooms';

export const classificationOf = (value: string): RoomClassification =>
  (ROOM_CLASSIFICATIONS as readonly string[]).includes(value) ? (value as RoomClassification) : 'none';
export const fileStatusOf = (value: string): RoomFileStatus => ((ROOM_FILE_STATUSES as readonly string[]).includes(value) ? (value as RoomFileStatus) : 'none');
