import type { KeyHandle, UnlockedKeys } from '@shared/crypto/service';
import type { MoveItem, MoveNames } from '../move-dialog';
import { decryptNames, roomKeyOf } from './e2e-room-client';
import { listE2eNames } from './e2e-names';

/**
 * The move-to dialog of an E2E room (move-dialog.tsx with a names source): folder names decrypted
 * in the crypto Worker, and the sibling check the server cannot make on sealed names — the target's
 * sub-folders and every page of its files are decrypted and compared (case-insensitive, as the
 * server compares plain names) before the plain move call. Nothing is re-sealed or re-signed: no
 * sealed string names the folder (shared/crypto/README.md "7. Data rooms", "Move").
 */
export function e2eMoveNames(roomUuid: string, roomName: string, keysOf: () => Promise<UnlockedKeys | null>): MoveNames {
  const roomKey = async () => {
    const keys = await keysOf();
    if (!keys) throw new Error('locked');
    return roomKeyOf(roomUuid, keys);
  };
  return {
    roomName,
    folderNames: async (folders) => decryptNames(roomUuid, await roomKey(), folders.map((f) => ({ kind: 'folder' as const, itemId: f.uuid, sealed: f.name }))),
    clash: async (targetUuid, item) => {
      const kind = await takenInTarget(roomUuid, await roomKey(), targetUuid, item);
      return kind ? { key: kind === 'folder' ? 'errors.folderExists' : 'errors.fileExists', field: 'name' } : null;
    },
  };
}

/** The kind of the target's item whose decrypted name equals the moved item's, or null (every page of the target, as the server holds it now). */
async function takenInTarget(roomUuid: string, roomKey: KeyHandle, targetUuid: string | null, item: MoveItem): Promise<'folder' | 'file' | null> {
  const lower = item.name.trim().toLowerCase();
  const hit = (await listE2eNames(roomUuid, roomKey, targetUuid)).find((sibling) => sibling.uuid !== item.uuid && sibling.name?.toLowerCase() === lower);
  return hit?.kind ?? null;
}
