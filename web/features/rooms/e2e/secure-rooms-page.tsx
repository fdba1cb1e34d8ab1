import { Button, makeStyles, MessageBar, MessageBarBody, Text } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import type { Room } from '@shared/contract/rooms';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { useSecuPassSession } from '@web/lib/crypto';
import { ROUTES } from '@web/lib/routes';
import { useUnlockedKeys } from '@web/lib/unlock-request';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { refreshRooms, useSecureRooms } from '../api/rooms';
import { NameDialog, type NameRequest } from '../room-dialogs';
import { RoleBadge, useDateFormat } from '../room-format';
import { createE2eRoom, decryptNames, roomKeyOf } from './e2e-room-client';
import { EncryptionActivation, LockedKeysNotice } from './encryption-activation';

const useStyles = makeStyles({
  toolbar: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap', marginBottom: '16px' },
});

/**
 * "Secure rooms" (main menu, SPEC §2): the end-to-end encrypted rooms the caller has a role in,
 * their names decrypted in the crypto Worker; create one (licensed users: the server refuses
 * others with its message). Plain rooms stay under "Datarooms".
 */
export function SecureRoomsPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const dateFormat = useDateFormat();
  const session = useSecuPassSession();
  const unlock = useUnlockedKeys('decrypt');
  const rooms = useSecureRooms();
  const encrypted = rooms.data?.rooms ?? [];
  const [names, setNames] = useState<Map<string, string | null>>(new Map());
  const [naming, setNaming] = useState<NameRequest | null>(null);

  useEffect(() => {
    const keys = session?.keys;
    if (!keys || encrypted.length === 0) return;
    let cancelled = false;
    void (async () => {
      const found = new Map<string, string | null>();
      for (const room of encrypted) {
        try {
          const [name] = await decryptNames(room.uuid, await roomKeyOf(room.uuid, keys), [{ kind: 'room', itemId: room.uuid, sealed: room.name }]);
          found.set(room.uuid, name ?? null);
        } catch {
          found.set(room.uuid, null);
        }
      }
      if (!cancelled) setNames(found);
    })();
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session?.keys, rooms.data]);

  const openCreate = () =>
    setNaming({
      title: t('rooms:e2e.create.title'),
      label: t('rooms:create.nameLabel'),
      submitLabel: t('rooms:create.submit'),
      initial: '',
      run: async (name) => {
        const keys = await unlock();
        if (!keys) throw new Error('locked');
        const room = await createE2eRoom(name, keys);
        await refreshRooms();
        void navigate(ROUTES.secureRoom(room.uuid));
      },
      done: (name) => t('rooms:create.done', { name }),
      failed: (name) => t('rooms:create.failed', { name }),
    });

  const nameOf = (room: Room) => {
    if (!session) return t('rooms:e2e.locked');
    const name = names.get(room.uuid);
    return name === undefined ? t('common:loading') : (name ?? t('rooms:e2e.noAccess'));
  };
  const columns: DataTableColumn<Room>[] = [
    { id: 'name', header: t('rooms:list.columns.name'), cell: (room) => <RouterLink to={ROUTES.secureRoom(room.uuid)}>{nameOf(room)}</RouterLink> },
    { id: 'role', header: t('rooms:list.columns.role'), cell: (room) => <RoleBadge role={room.role} /> },
    { id: 'updated', header: t('rooms:list.columns.updated'), cell: (room) => dateFormat.format(room.updatedAt) },
  ];

  return (
    <>
      <PageHeading focusOnMount>{t('rooms:e2e.title')}</PageHeading>
      <EncryptionActivation where="list" />
      <LockedKeysNotice onUnlock={() => void unlock()} />
      <div className={styles.toolbar}>
        {/* Only for those the server lets create E2E rooms (licensed, E2E allowed, creation policy). */}
        {rooms.data?.mayCreate.e2e ? (
          <Button appearance="primary" icon={<AddRegular />} onClick={openCreate}>
            {t('rooms:e2e.create.action')}
          </Button>
        ) : null}
      </div>
      <MessageBar intent="info">
        <MessageBarBody>{t('rooms:e2e.explain')}</MessageBarBody>
      </MessageBar>
      <DataTable
        label={t('rooms:e2e.tableLabel')}
        columns={columns}
        rows={rooms.data ? encrypted : undefined}
        rowKey={(room) => room.uuid}
        loading={rooms.isLoading}
        {...(rooms.error ? { error: t('rooms:list.loadError') } : {})}
        empty={<Text as="p">{t('rooms:e2e.empty')}</Text>}
      />
      <NameDialog request={naming} onClose={() => setNaming(null)} />
    </>
  );
}
