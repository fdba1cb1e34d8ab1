import type { UnlockedKeys } from '@shared/crypto/service';
import { useCallback } from 'react';
import { RetentionButton, type RetentionNames } from '../retention-dialog';
import { decryptNames, roomKeyOf } from './e2e-room-client';

/**
 * A Secure room's retention policy: the same editor as a plain room's; the preview's file names
 * come sealed from the server and are opened here with the room key (no keys: none shown).
 */
export function E2eRetentionButton({ roomUuid, keys }: { roomUuid: string; keys: UnlockedKeys | undefined }) {
  const names = useCallback<RetentionNames>(
    async (files) => {
      if (!keys) return new Map();
      const roomKey = await roomKeyOf(roomUuid, keys);
      const plain = await decryptNames(roomUuid, roomKey, files.map((f) => ({ kind: 'file' as const, itemId: f.uuid, sealed: f.name })));
      return new Map(files.map((f, i) => [f.uuid, plain[i] ?? null]));
    },
    [keys, roomUuid],
  );
  return <RetentionButton roomUuid={roomUuid} names={names} />;
}
