import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { LinkMultipleRegular } from '@fluentui/react-icons';
import type { RoomLinkOverviewEntry } from '@shared/contract/room-links';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PersonName } from '../person-name';
import { ConfirmDialog, type ConfirmRequest } from '../room-dialogs';
import { useDateFormat } from '../room-format';
import { refreshLinks, revokeRoomFileLink, useRoomLinkOverview } from './api';
import { revokeRoomFolderLink } from './folder-link-api';

const useStyles = makeStyles({
  section: { marginTop: '24px' },
  head: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap', margin: '0 0 8px' },
  heading: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  target: { display: 'grid' },
  path: { color: tokens.colorNeutralForeground3 },
});

/**
 * The room-wide overview of a plain room's public links for its OWNER (issue 32; GET
 * /rooms/{room}/links): file, folder and upload links with their target, maker, expiry, password,
 * use and state, loaded when asked for; an active one is revoked after a confirmation (through the
 * file's or the folder's own revoke call).
 */
export function RoomLinksSection({ roomUuid, roomName }: { roomUuid: string; roomName: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const dateFormat = useDateFormat();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);
  const links = useRoomLinkOverview(roomUuid, open);

  const revoke = (link: RoomLinkOverviewEntry) =>
    setConfirming({
      title: t('roomLinks:confirmTitle'),
      text: link.kind === 'drop' ? t('roomLinks:confirmTextDrop', { name: link.targetName }) : t('roomLinks:confirmText', { name: link.targetName }),
      confirmLabel: t('roomLinks:revoke'),
      run: async () => {
        if (link.kind === 'file') await revokeRoomFileLink(roomUuid, link.targetUuid, link.uuid);
        else await revokeRoomFolderLink(roomUuid, link.targetUuid, link.uuid);
        await refreshLinks();
      },
      done: t('roomLinks:revoked', { name: link.targetName }),
      failed: t('roomLinks:revokeFailed', { name: link.targetName }),
    });

  const columns: DataTableColumn<RoomLinkOverviewEntry>[] = [
    {
      id: 'target',
      header: t('roomLinks:overview.columns.target'),
      cell: (l) => (
        <span className={styles.target}>
          <span>{l.targetName}</span>
          <Text size={200} className={styles.path}>
            {[roomName, ...l.path.map((step) => step.name)].join(' › ')}
          </Text>
        </span>
      ),
    },
    { id: 'kind', header: t('roomLinks:columns.kind'), cell: (l) => t(`roomLinks:kinds.${l.kind}`) },
    { id: 'by', header: t('roomLinks:columns.by'), cell: (l) => <PersonName name={l.createdByName} email={l.createdBy} /> },
    { id: 'expires', header: t('roomLinks:columns.expires'), cell: (l) => dateFormat.format(l.expiresAt) },
    { id: 'password', header: t('roomLinks:columns.password'), cell: (l) => (l.passwordProtected ? t('roomLinks:passwordYes') : t('roomLinks:passwordNo')) },
    {
      id: 'use',
      header: t('roomLinks:columns.use'),
      cell: (l) =>
        l.kind === 'drop'
          ? t('roomLinks:uploadsCount', { count: l.uploads })
          : l.maxDownloads === null
            ? t('roomLinks:downloadsCount', { count: l.downloads })
            : t('roomLinks:downloadsOfLimit', { done: l.downloads, limit: l.maxDownloads }),
    },
    { id: 'state', header: t('roomLinks:columns.state'), cell: (l) => t(`roomLinks:states.${l.state}`) },
    {
      id: 'actions',
      header: t('roomLinks:columns.actions'),
      cell: (l) =>
        l.state === 'active' ? (
          <Button size="small" onClick={() => revoke(l)} aria-label={t('roomLinks:overview.revokeFor', { kind: t(`roomLinks:kinds.${l.kind}`), name: l.targetName, date: dateFormat.format(l.createdAt) })}>
            {t('roomLinks:revoke')}
          </Button>
        ) : null,
    },
  ];

  return (
    <section className={styles.section} aria-labelledby="room-links-overview-heading">
      <div className={styles.head}>
        <h2 id="room-links-overview-heading" className={styles.heading}>
          {t('roomLinks:overview.title')}
        </h2>
        <Button icon={<LinkMultipleRegular />} aria-expanded={open} onClick={() => setOpen((was) => !was)}>
          {open ? t('roomLinks:overview.hide') : t('roomLinks:overview.show')}
        </Button>
      </div>
      {!open ? null : (
        <>
          <Text as="p">{t('roomLinks:overview.intro')}</Text>
          {links.error ? (
            <Alert type="error">{t('roomLinks:loadError')}</Alert>
          ) : !links.data ? (
            <Spinner size="small" label={t('common:loading')} />
          ) : (
            <DataTable labelledBy="room-links-overview-heading" columns={columns} rows={links.data.links} rowKey={(l) => l.uuid} empty={<Text as="p">{t('roomLinks:overview.empty')}</Text>} />
          )}
        </>
      )}
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} />
    </section>
  );
}

/** A Secure room's OWNER looks for its links: why it has none (the server holds no key to its content). */
export function SecureRoomLinksNote() {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <section className={styles.section} aria-labelledby="room-links-overview-heading">
      <h2 id="room-links-overview-heading" className={styles.heading}>
        {t('roomLinks:overview.title')}
      </h2>
      <Text as="p">{t('roomLinks:overview.secureNone')}</Text>
    </section>
  );
}
