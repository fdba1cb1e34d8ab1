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
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { refreshRoomInvitations } from './api/room-invitations';
import { refreshRooms, setRoomAccess, useRoomAccess } from './api/rooms';
import { PendingInvitations } from './pending-invitations';
import { roomErrorText } from './room-errors';

const useStyles = makeStyles({
  surface: { maxWidth: '820px', width: '100%' },
  content: { display: 'grid', gap: '16px' },
  add: { display: 'flex', gap: '8px', alignItems: 'start', flexWrap: 'wrap' },
  user: { flex: '1 1 240px' },
  person: { display: 'grid' },
  addButton: { marginTop: '26px' },
});

const personName = (entry: RoomAccessEntry) => entry.user.name || entry.user.username || entry.user.email;

/**
 * Who has which role on the room or a folder, for its OWNERs (SPEC §2 share / change access /
 * revoke access dialogs): add a registered person by email or username with a role, change a
 * role, remove an entry set here. Changing one's own access asks first (irreversible); the last
 * OWNER leaving is the server's to refuse, its message is the toast. Every outcome names the item,
 * the role and the person (SPEC §8).
 */
export function ShareDialog({ open, onClose, roomUuid, folder, itemName }: { open: boolean; onClose: () => void; roomUuid: string; folder: RoomFolder | null; itemName: string }) {
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
  // The own entry's change waiting for the confirmation (shown in place of the list, not as a second modal).
  const [ownChange, setOwnChange] = useState<{ user: string; label: string; role: RoomRole | null } | null>(null);
  const roleName = (value: RoomRole | null) => (value ? t(`rooms:roles.${value}`) : '');

  /** One access change with its toasts; throws nothing. Returns whether it went through. */
  async function apply(input: { user: string; label: string; role: RoomRole | null; confirmOwnChange?: boolean }, field = false): Promise<boolean> {
    const values = { item: itemName, role: roleName(input.role), user: input.label };
    try {
      const result = await setRoomAccess(roomUuid, { user: input.user, role: input.role, ...(folderUuid ? { folderUuid } : {}), ...(input.confirmOwnChange ? { confirmOwnChange: true } : {}) });
      // An address without an account was invited by mail (rooms invitations): listed as pending.
      if (result.invitation) notify('success', t('rooms:invitations.invited', values));
      else notify('success', input.role ? t('rooms:share.changed', values) : t('rooms:share.revoked', values));
      await Promise.all([refreshRooms(), refreshRoomInvitations()]);
      return true;
    } catch (error) {
      const text = roomErrorText(error);
      if (field && text.field === 'user') setUserProblem(t(`rooms:${text.key}`, text.values));
      else notify('error', input.role ? t('rooms:share.changeFailed', values) : t('rooms:share.revokeFailed', values), t(`rooms:${text.key}`, text.values));
      return false;
    }
  }

  /** A change of one's own entry is irreversible: ask first (SPEC §4 "changing own access"). */
  function change(entry: RoomAccessEntry, next: RoomRole | null) {
    const input = { user: entry.user.email, label: personName(entry), role: next };
    if (entry.user.uuid === me?.uuid) setOwnChange(input);
    else void apply(input);
  }

  async function confirmOwnChange() {
    if (!ownChange) return;
    setPending(true);
    await apply({ ...ownChange, confirmOwnChange: true });
    setPending(false);
    setOwnChange(null);
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
      setOwnChange({ user: who, label: who, role });
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

  if (ownChange) {
    const values = { item: itemName, role: roleName(ownChange.role) };
    return (
      <Dialog open={open} modalType="alert" onOpenChange={(_e, data) => (data.open ? undefined : setOwnChange(null))}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t('rooms:share.ownTitle')}</DialogTitle>
            <DialogContent>
              <Text as="p" style={{ margin: 0 }}>
                {ownChange.role ? t('rooms:share.ownChangeText', values) : t('rooms:share.ownRevokeText', values)}
              </Text>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={() => setOwnChange(null)}>
                {t('common:actions.cancel')}
              </Button>
              <Button appearance="primary" disabled={pending} onClick={() => void confirmOwnChange()}>
                {t('rooms:share.ownConfirm')}
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
