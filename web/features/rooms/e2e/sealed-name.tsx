import type { RoomActivityEntry } from '@shared/contract/room-files';
import { useSecuPassSession } from '@web/lib/crypto';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { decryptNames, roomKeyOf } from './e2e-room-client';

/**
 * The decrypted name of an E2E room's activity entry (the server logs the sealed string): decrypted
 * in the crypto Worker with the room key; "locked" until the keys are unlocked, "cannot be decrypted" on failure.
 */
export function SealedActivityName({ roomUuid, entry }: { roomUuid: string; entry: RoomActivityEntry }) {
  const { t } = useTranslation();
  const keys = useSecuPassSession()?.keys;
  const [name, setName] = useState<string | null | undefined>(undefined);
  const { type, uuid, name: sealed } = entry.item;

  useEffect(() => {
    if (!keys) return;
    let cancelled = false;
    roomKeyOf(roomUuid, keys)
      .then((roomKey) => decryptNames(roomUuid, roomKey, [{ kind: type, itemId: uuid, sealed }]))
      .then(
        ([plain]) => !cancelled && setName(plain ?? null),
        () => !cancelled && setName(null),
      );
    return () => {
      cancelled = true;
    };
  }, [keys, roomUuid, type, uuid, sealed]);

  const shown = !keys ? t('rooms:e2e.locked') : name === undefined ? '…' : (name ?? t('rooms:e2e.nameBroken'));
  return <>{entry.detail ? `${shown} (${entry.detail})` : shown}</>;
}
