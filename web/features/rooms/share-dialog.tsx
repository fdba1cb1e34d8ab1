import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Field,
  Input,
  makeStyles,
  Select,
  Text,
} from '@fluentui/react-components';
import { ROOM_ROLES, type RoomAccessEntry, type RoomFolder, type RoomRole } from '@shared/contract/rooms';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useAuthState } from '@web/lib/auth';
import { useNotify } from '@web/lib/toasts';
import { useState, type FormEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { AccessFlags } from './access-flags';
import { refreshRoomInvitations } from './api/room-invitations';
import { refreshRooms, setRoomAccess, useRoomAccess } from './api/rooms';
import { PendingInvitations } from './pending-invitations';
import { roomErrorText } from './room-errors';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  surface: { maxWidth: '820px', width: '100%' },
  content: { display: 'grid', gap: '16px' },
  add: { display: 'flex', gap: '8px', alignItems: 'start', flexWrap: 'wrap' },
  user: { flex: '1 1 240px' },
  person: { display: 'grid' },
  addButton: { marginTop: '26px' },
});

const personName = (entry: RoomAccessEntry) => entry.user.name || entry.user.username || entry.user.email;

export interface AccessChange {
  user: string;
  label: string;
  role: RoomRole | null;
}

/**
 * What differs per kind of room (the E2E room page passes one): extra columns after the role (the
 * member's key state) and a step after a change went through (granting the room key right away).
 */
export interface ShareDialogExtension {
  columns?: DataTableColumn<RoomAccessEntry>[];
  /** Runs after the change was stored, with the answer's entries; it toasts its own outcome. */
  afterChange?: (change: AccessChange, entries: RoomAccessEntry[]) => Promise<void>;
  /** A line below the intro (a Secure room: why it has no public links). */
  note?: string;
}

/**
 * Who has which role on the room or a folder, for its OWNERs (SPEC §2 share / change access /
 * revoke access dialogs): add a registered person by email or username with a role, change a
 * role, remove an entry set here. Changing a role and revoking ask first (SPEC §2 change / revoke
 * access dialogs; one's own change is irreversible and says so); the last OWNER leaving is the
 * server's to refuse, its message is the toast. Every outcome names the item, the role and the
 * person (SPEC §8).
 */
export function ShareDialog({
  open,
  onClose,
  roomUuid,
  folder,
  itemName,
  extension,
}: {
  open: boolean;
  onClose: () => void;
  roomUuid: string;
  folder: RoomFolder | null;
  itemName: string;
  extension?: ShareDialogExtension;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const me = useAuthState().user;
  const folderUuid = folder?.uuid;
  const access = useRoomAccess(roomUuid, folderUuid, open);
  const [user, setUser] = useState('');
  const [role, setRole] = useState<RoomRole>('VIEWER');
  const [userProblem, setUserProblem] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  // The change waiting for its confirmation (shown in place of the list, not as a second modal).
  const [confirming, setConfirming] = useState<(AccessChange & { own: boolean; current: RoomRole }) | null>(null);
  const roleName = (value: RoomRole | null) => (value ? t(`rooms:roles.${value}`) : '');

  /** One access change with its toasts; throws nothing. Returns whether it went through. */
  async function apply(input: AccessChange & { confirmOwnChange?: boolean }, field = false): Promise<boolean> {
    const values = { item: itemName, role: roleName(input.role), user: input.label };
    try {
      const answer = await setRoomAccess(roomUuid, { user: input.user, role: input.role, ...(folderUuid ? { folderUuid } : {}), ...(input.confirmOwnChange ? { confirmOwnChange: true } : {}) });
      // The add form (`field`) invites a person; a row's change or removal changes or revokes access.
      track(field ? ANALYTICS_ACTIONS.usersInvited : input.role ? ANALYTICS_ACTIONS.accessChanged : ANALYTICS_ACTIONS.accessRevoked, { folder: folderUuid !== undefined && folderUuid !== null });
      // An address without an account was invited by mail (rooms invitations): listed as pending.
      if (answer.invitation) notify('success', t('rooms:invitations.invited', values));
      else notify('success', input.role ? t('rooms:share.changed', values) : t('rooms:share.revoked', values));
      if (extension?.afterChange && !answer.invitation) await extension.afterChange({ user: input.user, label: input.label, role: input.role }, answer.entries);
      await Promise.all([refreshRooms(), refreshRoomInvitations()]);
      return true;
    } catch (error) {
      const text = roomErrorText(error);
      if (field && text.field === 'user') setUserProblem(t(`rooms:${text.key}`, text.values));
      else notify('error', input.role ? t('rooms:share.changeFailed', values) : t('rooms:share.revokeFailed', values), t(`rooms:${text.key}`, text.values));
      return false;
    }
  }

  /** Every change of an entry is confirmed first; one's own is irreversible (SPEC §4 "changing own access"). */
  function change(entry: RoomAccessEntry, next: RoomRole | null) {
    if (next === entry.role) return;
    setConfirming({ user: entry.user.email, label: personName(entry), role: next, own: entry.user.uuid === me?.uuid, current: entry.role });
  }

  async function confirmChange() {
    if (!confirming) return;
    setPending(true);
    await apply({ user: confirming.user, label: confirming.label, role: confirming.role, ...(confirming.own ? { confirmOwnChange: true } : {}) });
    setPending(false);
    setConfirming(null);
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    const who = user.trim();
    if (who === '') {
      setUserProblem(t('common:validation.required'));
      return;
    }
    setUserProblem(undefined);
    setPending(true);
    // Naming oneself is a change of one's own access: asked first like any other.
    if (me && [me.email.toLowerCase(), me.username.toLowerCase()].includes(who.toLowerCase())) {
      setPending(false);
      setConfirming({ user: who, label: who, role, own: true, current: role });
      return;
    }
    if (await apply({ user: who, label: who, role }, true)) setUser('');
    setPending(false);
  }

  const columns: DataTableColumn<RoomAccessEntry>[] = [
    {
      id: 'person',
      header: t('rooms:share.columns.person'),
      cell: (entry) => (
        <span className={styles.person}>
          <Text weight="semibold">
            {personName(entry)}
            {entry.user.uuid === me?.uuid ? ` ${t('rooms:share.you')}` : ''}
          </Text>
          {personName(entry) === entry.user.email ? null : <Text size={200}>{entry.user.email}</Text>}
          <AccessFlags entry={entry} />
        </span>
      ),
    },
    {
      id: 'role',
      header: t('rooms:share.columns.role'),
      cell: (entry) => (
        <Select
          aria-label={t('rooms:share.roleOf', { name: personName(entry) })}
          value={entry.role}
          onChange={(_e, data) => change(entry, data.value as RoomRole)}
        >
          {ROOM_ROLES.map((value) => (
            <option key={value} value={value}>
              {t(`rooms:roles.${value}`)}
            </option>
          ))}
        </Select>
      ),
    },
    ...(extension?.columns ?? []),
    {
      id: 'where',
      header: t('rooms:share.columns.where'),
      cell: (entry) => (entry.inherited ? (entry.setOn ? t('rooms:share.inheritedFolder') : t('rooms:share.inheritedRoom')) : t('rooms:share.setHere')),
    },
    {
      id: 'remove',
      header: t('rooms:share.columns.remove'),
      // Only an entry set here can be revoked here; an inherited one is removed where it is set.
      cell: (entry) =>
        entry.inherited ? null : (
          <Button size="small" onClick={() => change(entry, null)} aria-label={t('rooms:share.removeFor', { name: personName(entry) })}>
            {t('rooms:share.remove')}
          </Button>
        ),
    },
  ];

  // The confirmation is a dialog nested in this one (Fluent's nested dialogs): the share dialog, its
  // list and a half-typed name stay open beneath it, and come back focused after it (issue 32).
  let confirmation: ReactElement | null = null;
  if (confirming) {
    // The same texts as the details sidebar's Access tab (a revoke names the role given up).
    const values = { item: itemName, role: roleName(confirming.role ?? confirming.current), user: confirming.label };
    const text = confirming.own
      ? confirming.role
        ? t('rooms:share.ownChangeText', values)
        : t('rooms:share.ownRevokeText', values)
      : confirming.role
        ? t('rooms:details.changeText', values)
        : t('rooms:details.revokeText', values);
    confirmation = (
      <Dialog open modalType="alert" onOpenChange={(_e, data) => (data.open ? undefined : setConfirming(null))}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{confirming.own ? t('rooms:share.ownTitle') : confirming.role ? t('rooms:details.changeTitle', values) : t('rooms:details.revokeTitle', values)}</DialogTitle>
            <DialogContent>
              <Text as="p" style={{ margin: 0 }}>
                {text}
              </Text>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={() => setConfirming(null)}>
                {t('common:actions.cancel')}
              </Button>
              <Button appearance="primary" disabled={pending} onClick={() => void confirmChange()}>
                {confirming.own ? t('rooms:share.ownConfirm') : confirming.role ? t('rooms:details.changeConfirm') : t('rooms:details.revokeConfirm')}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    );
  }

  return (
    <Dialog open={open} onOpenChange={(_e, data) => (data.open ? undefined : onClose())}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{t('rooms:share.title', { name: itemName })}</DialogTitle>
          <DialogContent className={styles.content}>
            <Text as="p" style={{ margin: 0 }}>
              {folder ? t('rooms:share.introFolder') : t('rooms:share.introRoom')}
            </Text>
            {extension?.note ? (
              <Text as="p" style={{ margin: 0 }}>
                {extension.note}
              </Text>
            ) : null}
            <form onSubmit={(event) => void add(event)} noValidate className={styles.add} aria-label={t('rooms:share.addLabel')}>
              <Field label={t('rooms:share.user')} hint={t('rooms:invitations.hint')} required validationMessage={userProblem} className={styles.user}>
                <Input value={user} autoComplete="off" onChange={(_e, data) => setUser(data.value)} />
              </Field>
              <Field label={t('rooms:share.role')}>
                <Select value={role} onChange={(_e, data) => setRole(data.value as RoomRole)}>
                  {ROOM_ROLES.map((value) => (
                    <option key={value} value={value}>
                      {t(`rooms:roles.${value}`)}
                    </option>
                  ))}
                </Select>
              </Field>
              <Button type="submit" appearance="primary" disabled={pending} className={styles.addButton}>
                {t('rooms:share.add')}
              </Button>
            </form>
            <DataTable
              label={t('rooms:share.tableLabel', { name: itemName })}
              columns={columns}
              rows={access.data?.entries}
              rowKey={(entry) => `${entry.user.uuid}:${entry.setOn ?? 'room'}`}
              loading={access.isLoading}
              {...(access.error ? { error: t(`rooms:${roomErrorText(access.error).key}`) } : {})}
              empty={<Text as="p">{t('rooms:share.empty')}</Text>}
            />
            <PendingInvitations roomUuid={roomUuid} folderUuid={folderUuid} itemName={itemName} open={open} />
            {confirmation}
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="secondary">{t('rooms:share.close')}</Button>
            </DialogTrigger>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
