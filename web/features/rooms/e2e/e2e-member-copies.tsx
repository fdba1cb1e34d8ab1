import { Badge, Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { MoreHorizontalRegular } from '@fluentui/react-icons';
import type { E2eMember } from '@shared/contract/rooms-e2e';
import type { UnlockedKeys } from '@shared/crypto/service';
import { useChangedKeyConfirm } from '@web/components/changed-key-dialog';
import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, type ConfirmRequest } from '../room-dialogs';
import { grantRoomKey, memberCopyState, setRoomChangedKeyQuestion, type MemberCopyState } from './e2e-room-client';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/**
 * The room page's changed-key dialog (the deliveries' one, web/components/changed-key-dialog.tsx):
 * while the page is open, a member whose pinned key differs from the listed one — the granter of
 * the caller's copy, a file's signer, a member being granted — is asked about instead of refused
 * (README section 7 "A member's key changed"). Registered before the page's loaders run.
 */
export function useRoomChangedKeyDialog(): ReactNode {
  const { t } = useTranslation();
  const { confirmChangedKey, dialog } = useChangedKeyConfirm(t('rooms:e2e.changedKeyConfirm'));
  useLayoutEffect(() => setRoomChangedKeyQuestion(confirmChangedKey), [confirmChangedKey]);
  return dialog;
}

/**
 * Each member's copy of the room key as this OWNER's browser sees it (README section 7 "The
 * members' copies"): verified in the Worker against the granter's pinned key; undefined while checking.
 */
export function useMemberCopyStates(roomUuid: string, keys: UnlockedKeys | undefined, members: readonly E2eMember[] | undefined): Map<string, MemberCopyState> | undefined {
  const [states, setStates] = useState<{ of: readonly E2eMember[]; states: Map<string, MemberCopyState> } | null>(null);
  useEffect(() => {
    if (!keys || !members) return;
    let cancelled = false;
    void (async () => {
      const out = new Map<string, MemberCopyState>();
      for (const member of members) {
        const state = await memberCopyState(roomUuid, keys, member).catch((error: unknown): MemberCopyState => ({ state: 'unverified', code: (error as { code?: string }).code ?? 'room-key-grant-invalid' }));
        out.set(member.user.uuid, state);
      }
      if (!cancelled) setStates({ of: members, states: out });
    })();
    return () => {
      cancelled = true;
    };
  }, [roomUuid, keys, members]);
  return states && states.of === members ? states.states : undefined;
}

/** The members table's "Room key copy" cell. */
export function MemberCopyCell({ state }: { state: MemberCopyState | undefined }) {
  const { t } = useTranslation();
  if (!state) return <>{t('rooms:e2e.memberCopy.checking')}</>;
  const color = state.state === 'verified' ? 'success' : state.state === 'unverified' ? 'danger' : 'informative';
  return (
    <Badge appearance="tint" color={color} {...(state.state === 'unverified' ? { title: state.code } : {})}>
      {t(`rooms:e2e.memberCopy.${state.state}`)}
    </Badge>
  );
}

/** An approved member's row menu: grant the room key again (a new copy to her current verified key, signed). */
export function MemberCopyMenu({ member, onRegrant }: { member: E2eMember; onRegrant: (member: E2eMember) => void }) {
  const { t } = useTranslation();
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" icon={<MoreHorizontalRegular />} aria-label={t('rooms:e2e.memberCopy.actionsFor', { user: member.user.email })} />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem onClick={() => onRegrant(member)}>{t('rooms:e2e.memberCopy.regrant')}</MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/** The re-grant confirmation: `ask(member)`, and `dialog` to mount once; `onDone` refreshes the members list. */
export function useRegrantDialog(roomUuid: string, unlock: () => Promise<UnlockedKeys | null | undefined>, onDone: () => Promise<unknown>): { ask: (member: E2eMember) => void; dialog: ReactNode } {
  const { t } = useTranslation();
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const ask = (member: E2eMember) => {
    const user = member.user.email;
    setRequest({
      title: t('rooms:e2e.memberCopy.regrantTitle', { user }),
      text: t('rooms:e2e.memberCopy.regrantText', { user }),
      confirmLabel: t('rooms:e2e.memberCopy.regrantConfirm'),
      run: async () => {
        const keys = await unlock();
        if (!keys) throw new Error('locked');
        try {
          await grantRoomKey(roomUuid, keys, member);
          track(ANALYTICS_ACTIONS.dataRoomKeysShared);
        } finally {
          await onDone();
        }
      },
      done: t('rooms:e2e.memberCopy.regranted', { user }),
      failed: t('rooms:e2e.memberCopy.regrantFailed', { user }),
    });
  };
  return { ask, dialog: <ConfirmDialog request={request} onClose={() => setRequest(null)} /> };
}
