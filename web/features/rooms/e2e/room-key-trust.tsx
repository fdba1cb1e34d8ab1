import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import type { E2eMember } from '@shared/contract/rooms-e2e';
import type { UnlockedKeys } from '@shared/crypto/service';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roomKeyTrustOf, signLegacyMemberList, signLegacyRoomKeyGrants, type RoomKeyTrust } from './e2e-room-client';
import type { RoomRole } from '@shared/contract/rooms';
import { roomMay } from '../room-may';

/**
 * Whether the caller's copy of the room key was granted by an OWNER (shared/crypto/README.md
 * section 7 "Who made my copy of the room key"); null while unknown or without a copy. An OWNER
 * opening a room made before grants were signed signs them first (`onMigrated` then refreshes the
 * members list).
 */
export function useRoomKeyTrust(roomUuid: string, keys: UnlockedKeys | undefined, role: RoomRole | undefined, onMigrated: () => void, confirmFirstList: (members: E2eMember[]) => Promise<boolean>): RoomKeyTrust | null {
  const [trust, setTrust] = useState<{ room: string; trust: RoomKeyTrust } | null>(null);
  useEffect(() => {
    if (!keys || !role) return;
    let cancelled = false;
    void (async () => {
      try {
        if (roomMay(role, 'manageAccess') && (await signLegacyRoomKeyGrants(roomUuid, keys))) onMigrated();
        // A room without a signed member list yet: the OWNER's client writes the first once she confirmed
        // the members it blesses (README section 7) — whenever she does; the copy's check does not wait for it.
        if (roomMay(role, 'manageAccess')) {
          void signLegacyMemberList(roomUuid, keys, confirmFirstList).then(
            (wrote) => wrote && onMigrated(),
            (error: unknown) => console.debug('[e2e] first member list', error),
          );
        }
        const answer = await roomKeyTrustOf(roomUuid, keys);
        if (!cancelled) setTrust({ room: roomUuid, trust: answer });
      } catch (error) {
        // No copy (pending, not approved): the page's access message says so.
        console.debug('[e2e] room key trust', error);
      }
    })();
    return () => {
      cancelled = true;
    };
    // onMigrated and confirmFirstList are callbacks; new ones must not re-run the check.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [roomUuid, keys, role]);
  return trust?.room === roomUuid ? trust.trust : null;
}

/** The room page's notice when the copy cannot be verified: readable, but nothing is encrypted with it. */
export function RoomKeyTrustBar({ trust }: { trust: RoomKeyTrust | null }) {
  const { t } = useTranslation();
  if (!trust || trust.ok) return null;
  const unsigned = trust.code === 'room-key-grant-missing';
  return (
    <MessageBar intent={unsigned ? 'warning' : 'error'} style={{ marginTop: 12 }}>
      <MessageBarBody>{t(unsigned ? 'rooms:e2e.keyGrant.unsigned' : 'rooms:e2e.keyGrant.invalid')}</MessageBarBody>
    </MessageBar>
  );
}
