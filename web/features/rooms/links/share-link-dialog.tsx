import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, Field, Input, makeStyles, Select, Spinner, Text } from '@fluentui/react-components';
import { CopyRegular, LinkRegular, OpenRegular } from '@fluentui/react-icons';
import { ROOM_LINK_DEFAULT_DAYS, ROOM_LINK_MAX_DAYS, type CreatedRoomLink, type RoomLink } from '@shared/contract/room-links';
import type { RoomFile } from '@shared/contract/rooms';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useNotify } from '@web/lib/toasts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roomErrorText } from '../room-errors';
import { useDateFormat } from '../room-format';
import { createRoomFileLink, revokeRoomFileLink, useRoomFileLinks } from './api';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(820px, 95vw)', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: '16px' },
  row: { display: 'flex', gap: '8px', alignItems: 'flex-end', flexWrap: 'wrap' },
  url: { flexGrow: 1, minWidth: '260px' },
  heading: { margin: 0, fontSize: '1em', fontWeight: 600 },
});

/** The expiries offered (days); the server accepts 1 to ROOM_LINK_MAX_DAYS. */
const EXPIRY_CHOICES = [1, ROOM_LINK_DEFAULT_DAYS, 14, 30, ROOM_LINK_MAX_DAYS] as const;

/**
 * "Share link" of a plain room's file (OWNER, EDITOR): make a public link with an expiry (its URL is
 * the landing page `/room-link/{token}`: name, size, expiry, Download), copy or open it (its URL is
 * shown only right after it was made), see the file's links and revoke one after a confirmation. E2E rooms have no such entry (the server refuses: it cannot decrypt).
 */
export function ShareLinkDialog({ file, onClose }: { file: RoomFile | null; onClose: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const dateFormat = useDateFormat();
  const links = useRoomFileLinks(file);
  const [days, setDays] = useState<number>(ROOM_LINK_DEFAULT_DAYS);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedRoomLink | null>(null);
  const [revoking, setRevoking] = useState<RoomLink | null>(null);

  const close = () => {
    setCreated(null);
    setDays(ROOM_LINK_DEFAULT_DAYS);
    onClose();
  };

  async function create() {
    if (!file) return;
    setBusy(true);
    try {
      setCreated(await createRoomFileLink(file.roomUuid, file.uuid, days));
    } catch (error) {
      const text = roomErrorText(error);
      notify('error', t('roomLinks:createFailed', { name: file.name }), t(`rooms:${text.key}`, text.values));
    } finally {
      setBusy(false);
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      notify('success', t('roomLinks:copied'));
    } catch {
      notify('error', t('roomLinks:copyFailed'));
    }
  }

  async function revoke(link: RoomLink) {
    setRevoking(null);
    if (!file) return;
    try {
      await revokeRoomFileLink(file.roomUuid, file.uuid, link.uuid);
      if (created?.uuid === link.uuid) setCreated(null);
      notify('success', t('roomLinks:revoked', { name: file.name }));
    } catch (error) {
      const text = roomErrorText(error);
      notify('error', t('roomLinks:revokeFailed', { name: file.name }), t(`rooms:${text.key}`, text.values));
    }
  }

  const columns: DataTableColumn<RoomLink>[] = [
    { id: 'created', header: t('roomLinks:columns.created'), cell: (l) => dateFormat.format(l.createdAt) },
    { id: 'by', header: t('roomLinks:columns.by'), cell: (l) => l.createdBy },
    { id: 'expires', header: t('roomLinks:columns.expires'), cell: (l) => dateFormat.format(l.expiresAt) },
    { id: 'state', header: t('roomLinks:columns.state'), cell: (l) => t(`roomLinks:states.${l.state}`) },
    { id: 'downloads', header: t('roomLinks:columns.downloads'), cell: (l) => String(l.downloads) },
    {
      id: 'actions',
      header: t('roomLinks:columns.actions'),
      cell: (l) =>
        l.state === 'active' ? (
          <Button size="small" onClick={() => setRevoking(l)} aria-label={t('roomLinks:revokeFor', { date: dateFormat.format(l.createdAt) })}>
            {t('roomLinks:revoke')}
          </Button>
        ) : null,
    },
  ];

  return (
    <>
      <Dialog open={file !== null && revoking === null} onOpenChange={(_e, data) => (data.open ? undefined : close())}>
        <DialogSurface className={styles.surface}>
          <DialogBody>
            <DialogTitle>{t('roomLinks:title', { name: file?.name ?? '' })}</DialogTitle>
            <DialogContent className={styles.content}>
              <Text as="p" style={{ margin: 0 }}>
                {t('roomLinks:intro')}
              </Text>
              <div className={styles.row}>
                <Field label={t('roomLinks:expiry')}>
                  <Select value={String(days)} onChange={(_e, data) => setDays(Number(data.value))}>
                    {EXPIRY_CHOICES.map((d) => (
                      <option key={d} value={d}>
                        {t('roomLinks:expiryDays', { count: d })}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Button appearance="primary" icon={<LinkRegular />} disabled={busy} onClick={() => void create()}>
                  {t('roomLinks:create')}
                </Button>
              </div>
              {created ? (
                <div className={styles.row}>
                  <Field label={t('roomLinks:url')} hint={t('roomLinks:urlHint', { date: dateFormat.format(created.expiresAt) })} className={styles.url}>
                    <Input readOnly value={created.url} data-testid="room-link-url" onFocus={(e) => e.target.select()} />
                  </Field>
                  <Button icon={<CopyRegular />} onClick={() => void copy(created.url)}>
                    {t('roomLinks:copy')}
                  </Button>
                  {/* What the recipient sees: the landing page with the Download button. */}
                  <Button as="a" href={created.url} target="_blank" rel="noopener noreferrer" icon={<OpenRegular />}>
                    {t('roomLinks:openLink')}
                  </Button>
                </div>
              ) : null}
              <h3 id="room-links-heading" className={styles.heading}>
                {t('roomLinks:listTitle')}
              </h3>
              {links.error ? (
                <Alert type="error">{t('roomLinks:loadError')}</Alert>
              ) : !links.data ? (
                <Spinner size="small" label={t('common:loading')} />
              ) : (
                <DataTable labelledBy="room-links-heading" columns={columns} rows={links.data.links} rowKey={(l) => l.uuid} empty={<Text as="p">{t('roomLinks:empty')}</Text>} />
              )}
            </DialogContent>
            <DialogActions>
              <DialogTrigger disableButtonEnhancement>
                <Button>{t('roomLinks:close')}</Button>
              </DialogTrigger>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
      <Dialog open={revoking !== null} modalType="alert" onOpenChange={(_e, data) => (data.open ? undefined : setRevoking(null))}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t('roomLinks:confirmTitle')}</DialogTitle>
            <DialogContent>
              <Text as="p" style={{ margin: 0 }}>
                {t('roomLinks:confirmText', { name: file?.name ?? '' })}
              </Text>
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => revoking && void revoke(revoking)}>
                {t('roomLinks:revoke')}
              </Button>
              <Button onClick={() => setRevoking(null)}>{t('common:actions.cancel')}</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
