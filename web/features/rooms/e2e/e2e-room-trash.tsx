import { Alert } from '@web/components/alert';
import { useSecuPassSession } from '@web/lib/crypto';
import { ROUTES } from '@web/lib/routes';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RoomTrash, type TrashNames } from '../room-trash';
import { decryptNames, roomKeyOf } from './e2e-room-client';
import { LockedKeysNotice } from './encryption-activation';

/**
 * `/secure-rooms/:roomUuid/trash`: a Secure room's trash. The server keeps only sealed names; they
 * are decrypted here with the room key (crypto Worker), so the keys must be unlocked first.
 */
export function E2eRoomTrashPage() {
  const { t } = useTranslation();
  const { roomUuid = '' } = useParams();
  const keys = useSecuPassSession()?.keys;
  const unlock = useUnlockedKeys('decrypt');
  const names = useCallback<TrashNames>(
    async (entries) => {
      if (!keys) return new Map();
      const roomKey = await roomKeyOf(roomUuid, keys);
      const plain = await decryptNames(roomUuid, roomKey, entries.map((e) => ({ kind: e.type, itemId: e.uuid, sealed: e.name })));
      return new Map(entries.map((e, i) => [e.uuid, plain[i] ?? null]));
    },
    [keys, roomUuid],
  );
  const locked = keys ? undefined : (
    <>
      <Alert type="info">{t('rooms:trash.locked')}</Alert>
      <LockedKeysNotice onUnlock={() => void unlock()} />
    </>
  );
  return <RoomTrash key={keys ? 'open' : 'locked'} roomUuid={roomUuid} roomName={null} roomTo={ROUTES.secureRoom(roomUuid)} names={names} locked={locked} />;
}
