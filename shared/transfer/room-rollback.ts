import { RoomVersionRolledBackError } from '@shared/crypto/errors';
import { roomMetadataCounter, type RoomFileMetadata } from '@shared/crypto/room';

/**
 * Rollback of an E2E room file (shared/crypto/README.md section 7 "Version chain", issue 28 §2
 * case 2): the user's signed, synced state (the contact pin list, contact-pins.ts) keeps the
 * highest metadata counter any of her devices saw as a file's current state; a current state with
 * a lower counter is an earlier one the server hands out again.
 */

/** The part of ServerKeyPinStore this check needs. */
export interface FileCounterMemory {
  fileCounter(fileId: string): number;
  raiseFileCounters(entries: { fileId: string; counter: number }[]): Promise<void>;
}

/**
 * Checks the verified CURRENT states of files (never earlier versions: they are older by design)
 * against the memory and raises it for the newer ones (one save). Answers the files rolled back
 * (uuid → RoomVersionRolledBackError, code `room-version-rolled-back`): the caller refuses them as current.
 */
export async function checkRoomFileRollback(memory: FileCounterMemory, files: { fileId: string; metadata: Pick<RoomFileMetadata, 'counter'> }[]): Promise<Map<string, RoomVersionRolledBackError>> {
  const rolledBack = new Map<string, RoomVersionRolledBackError>();
  const raise: { fileId: string; counter: number }[] = [];
  for (const { fileId, metadata } of files) {
    const seen = memory.fileCounter(fileId);
    const counter = roomMetadataCounter(metadata);
    if (counter < seen) rolledBack.set(fileId, new RoomVersionRolledBackError(`The server hands out state ${counter} of this file as current; your devices saw state ${seen}`));
    else if (counter > seen) raise.push({ fileId, counter });
  }
  if (raise.length) await memory.raiseFileCounters(raise);
  return rolledBack;
}
