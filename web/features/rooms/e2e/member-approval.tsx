import { Badge, Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, MessageBar, MessageBarActions, MessageBarBody, Text, tokens } from '@fluentui/react-components';
import type { E2eMember } from '@shared/contract/rooms-e2e';
import type { UnlockedKeys } from '@shared/crypto/service';
import { memberListFlags, type MemberListFlag } from '@shared/transfer/room-member-list';
import { ContactKeyBadge } from '@web/components/contact-key-badge';
import { cryptoApi } from '@web/lib/crypto';
import { displayFingerprint } from '@web/lib/fingerprint';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { memberListOf } from './e2e-room-client';

/**
 * The signed member list on the room page (shared/crypto/README.md section 7 "Who is a member"):
 * which members it does not hold (a membership the server added is flagged, never silently
 * trusted), and the confirmation that shows a member's key fingerprint before the room key is
 * wrapped to it.
 */
const useStyles = makeStyles({
  fingerprint: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-word', margin: '4px 0 12px' },
});

/** Per member uuid: why the signed list flags her; `listProblem`: the list itself did not verify. */
export function useMemberListFlags(roomUuid: string, keys: UnlockedKeys | undefined, members: readonly E2eMember[] | undefined, revision: unknown) {
  // Bumped after this browser wrote a new list: the flags are worked out again even when the members'
  // rows stayed the same (SWR keeps an equal answer's object, and its key would repeat an old one).
  const [written, setWritten] = useState(0);
  const { data } = useSWR(keys && members ? ['rooms/e2e-member-list', roomUuid, revision, written] : null, async () => {
    const trust = await memberListOf(roomUuid, keys!);
    return trust.ok ? { flags: memberListFlags(trust.list, members!), listProblem: null } : { flags: new Map<string, MemberListFlag>(), listProblem: trust.code };
  });
  const refresh = () => setWritten((n) => n + 1);
  return { ...(data ?? { flags: new Map<string, MemberListFlag>(), listProblem: null }), refresh };
}

export function MemberListFlagBadge({ flag }: { flag: MemberListFlag | undefined }) {
  const { t } = useTranslation();
  if (!flag) return null;
  return (
    <Badge color="danger" appearance="outline" data-testid="member-list-flag">
      {t(`rooms:e2e.memberList.${flag}`)}
    </Badge>
  );
}

/**
 * Before the room key is wrapped to a member: her key's fingerprint and whether the caller verified
 * it. `onCancel` (Cancel, Escape): nothing is granted, the member stays waiting; `onClose` follows
 * either way.
 */
export function ApproveMemberDialog({ member, onConfirm, onCancel, onClose }: { member: E2eMember | null; onConfirm: (member: E2eMember) => Promise<void>; onCancel?: (member: E2eMember) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [busy, setBusy] = useState(false);
  const live = member?.keys.find((k) => k.usage === 'encryption');
  const cancel = () => {
    if (member) onCancel?.(member);
    onClose();
  };
  const { data: fingerprint } = useSWR(live ? ['rooms/e2e-approve-fingerprint', live.keyId] : null, async () => (await cryptoApi.fingerprint({ publicKey: live!.publicKey })).fingerprintDisplay);
  return (
    <Dialog open={member !== null} onOpenChange={(_e, data) => !data.open && !busy && cancel()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('rooms:e2e.approve.title', { user: member?.user.email ?? '' })}</DialogTitle>
          <DialogContent>
            <Text as="p">{t('rooms:e2e.approve.intro', { user: member?.user.email ?? '' })}</Text>
            <Text as="p" weight="semibold">
              {t('rooms:e2e.approve.fingerprint')}
            </Text>
            <p className={styles.fingerprint} data-testid="approve-fingerprint">
              {fingerprint ? displayFingerprint(fingerprint) : '…'}
            </p>
            {member && live ? <ContactKeyBadge userUuid={member.user.uuid} encryptionKey={live} verify={{ email: member.user.email }} /> : null}
          </DialogContent>
          <DialogActions>
            <Button
              appearance="primary"
              disabled={busy || !fingerprint}
              onClick={() => {
                if (!member) return;
                setBusy(true);
                void onConfirm(member).finally(() => {
                  setBusy(false);
                  onClose();
                });
              }}
            >
              {t('rooms:e2e.approve.confirm')}
            </Button>
            <Button disabled={busy} onClick={cancel}>
              {t('common:actions.cancel')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** The fingerprint of a member's live encryption key (recomputed from the key), or a dash without keys. */
function MemberFingerprint({ member }: { member: E2eMember }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const live = member.keys.find((k) => k.usage === 'encryption');
  const { data } = useSWR(live ? ['rooms/e2e-approve-fingerprint', live.keyId] : null, async () => (await cryptoApi.fingerprint({ publicKey: live!.publicKey })).fingerprintDisplay);
  if (!live) return <Text>{t('rooms:e2e.firstList.noKeys')}</Text>;
  return <span className={styles.fingerprint}>{data ? displayFingerprint(data) : '…'}</span>;
}

/**
 * A room without a signed member list (made before lists were signed): before an OWNER signs the
 * first one, it shows every member the server lists — who the list will bless — with role and key
 * fingerprint (README section 7 "Who writes it"). `request.answer(true)` signs; until then the room
 * stays without a list (the page's notice offers it again; asked again at the next open).
 */
export interface FirstListRequest {
  members: E2eMember[];
  answer: (sign: boolean) => void;
}

/** The OWNER's notice while the room has no signed member list, with the button that opens the confirmation. */
export function FirstMemberListBar({ request, onReview }: { request: FirstListRequest | null; onReview: () => void }) {
  const { t } = useTranslation();
  if (!request) return null;
  return (
    <MessageBar intent="warning" style={{ marginTop: 12 }}>
      <MessageBarBody>{t('rooms:e2e.firstList.notice')}</MessageBarBody>
      <MessageBarActions>
        <Button onClick={onReview}>{t('rooms:e2e.firstList.review')}</Button>
      </MessageBarActions>
    </MessageBar>
  );
}

/** `open`: the confirmation shows `request`; "Not now" only closes it (the request stays pending). */
export function FirstMemberListDialog({ request, open, onClose }: { request: FirstListRequest | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const sign = () => {
    request?.answer(true);
    onClose();
  };
  return (
    <Dialog open={open && request !== null} onOpenChange={(_e, data) => !data.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('rooms:e2e.firstList.title')}</DialogTitle>
          <DialogContent>
            <Text as="p">{t('rooms:e2e.firstList.intro')}</Text>
            <table aria-label={t('rooms:e2e.firstList.members')}>
              <thead>
                <tr>
                  <th scope="col">{t('rooms:e2e.members.user')}</th>
                  <th scope="col">{t('rooms:e2e.firstList.role')}</th>
                  <th scope="col">{t('rooms:e2e.approve.fingerprint')}</th>
                </tr>
              </thead>
              <tbody>
                {request?.members.map((m) => (
                  <tr key={m.user.uuid}>
                    <td>{m.user.email}</td>
                    <td>{t(`rooms:roles.${m.role}`)}</td>
                    <td data-testid="first-list-fingerprint">
                      <MemberFingerprint member={m} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={sign}>
              {t('rooms:e2e.firstList.confirm')}
            </Button>
            <Button onClick={onClose}>{t('rooms:e2e.firstList.later')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
