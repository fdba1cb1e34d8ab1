import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, Field, Input, makeStyles, Spinner, Text } from '@fluentui/react-components';
import { CopyRegular, LinkRegular, OpenRegular } from '@fluentui/react-icons';
import type { RoomFolderLink } from '@shared/contract/room-folder-links';
import { ROOM_LINK_DEFAULT_DAYS, ROOM_LINK_MAX_DAYS, ROOM_LINK_MAX_DOWNLOADS, ROOM_LINK_PASSWORD_MAX, ROOM_LINK_PASSWORD_MIN, type RoomLink } from '@shared/contract/room-links';
import { Alert } from '@web/components/alert';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { useNotify } from '@web/lib/toasts';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PersonName } from '../person-name';
import { roomErrorText } from '../room-errors';
import { useDateFormat } from '../room-format';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(860px, 95vw)', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: '16px' },
  row: { display: 'flex', gap: '8px', alignItems: 'flex-end', flexWrap: 'wrap' },
  url: { flexGrow: 1, minWidth: '260px' },
  heading: { margin: 0, fontSize: '1em', fontWeight: 600 },
});

// The calendar is a chunk of its own: only makers of links load it.
const ExpiryDatePicker = lazy(() => import(/* webpackChunkName: "link-expiry-date" */ './expiry-date-picker').then((m) => ({ default: m.ExpiryDatePicker })));

/** Today plus `days`, at the end of that day in the maker's zone (the link works through the chosen day). */
function endOfDayIn(days: number, from = new Date()): Date {
  return new Date(from.getFullYear(), from.getMonth(), from.getDate() + days, 23, 59, 59, 999);
}

/** A row of the links table: a file's link, or a folder's folder or drop link. */
export type AnyRoomLink = RoomLink | RoomFolderLink;
export const linkKind = (link: AnyRoomLink): 'file' | 'folder' | 'drop' => ('kind' in link ? link.kind : 'file');

/** What the form sends; the dialog around it adds the target (file, folder) and the kind. */
export interface LinkOptions {
  expiresAt: number;
  password?: string;
  maxDownloads?: number;
}

export interface LinkDialogProps {
  open: boolean;
  onClose: () => void;
  /** The file's or folder's name (toasts, confirmation). */
  name: string;
  text: { title: string; intro: string; listTitle: string; empty: string };
  /** A drop link hands nothing out: no download limit (the server refuses one). */
  withLimit: boolean;
  links: { data?: { links: AnyRoomLink[] }; error?: unknown };
  create: (options: LinkOptions) => Promise<{ uuid: string; url: string; expiresAt: number }>;
  revoke: (link: AnyRoomLink) => Promise<void>;
}

/**
 * The link dialog of a plain room's file or folder (issue 32 §2): make a public link with an expiry
 * date on a calendar, an optional password and (not for drop links) a download limit; copy or open
 * it (its URL is shown only right after it was made); the item's links with their kind, and revoke one
 * after a confirmation. Secure rooms have no such entry (the server refuses: it holds no key).
 */
export function LinkDialog({ open, onClose, name, text, withLimit, links, create: make, revoke: unmake }: LinkDialogProps) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const dateFormat = useDateFormat();
  const [expiry, setExpiry] = useState<Date>(() => endOfDayIn(ROOM_LINK_DEFAULT_DAYS));
  const [password, setPassword] = useState('');
  const [limit, setLimit] = useState('');
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ uuid: string; url: string; expiresAt: number } | null>(null);
  const [revoking, setRevoking] = useState<AnyRoomLink | null>(null);

  const close = () => {
    setCreated(null);
    setExpiry(endOfDayIn(ROOM_LINK_DEFAULT_DAYS));
    setPassword('');
    setLimit('');
    onClose();
  };

  const passwordTooShort = password !== '' && password.length < ROOM_LINK_PASSWORD_MIN;
  const limitNumber = !withLimit || limit === '' ? undefined : Number(limit);
  const limitInvalid = limitNumber !== undefined && !(Number.isInteger(limitNumber) && limitNumber >= 1 && limitNumber <= ROOM_LINK_MAX_DOWNLOADS);

  async function create() {
    if (passwordTooShort || limitInvalid) return;
    setBusy(true);
    try {
      setCreated(await make({ expiresAt: expiry.getTime(), password: password || undefined, maxDownloads: limitNumber }));
      setPassword('');
    } catch (error) {
      const reason = roomErrorText(error);
      notify('error', t('roomLinks:createFailed', { name }), t(`rooms:${reason.key}`, reason.values));
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

  async function revoke(link: AnyRoomLink) {
    setRevoking(null);
    try {
      await unmake(link);
      if (created?.uuid === link.uuid) setCreated(null);
      notify('success', t('roomLinks:revoked', { name }));
    } catch (error) {
      const reason = roomErrorText(error);
      notify('error', t('roomLinks:revokeFailed', { name }), t(`rooms:${reason.key}`, reason.values));
    }
  }

  const columns: DataTableColumn<AnyRoomLink>[] = [
    { id: 'kind', header: t('roomLinks:columns.kind'), cell: (l) => t(`roomLinks:kinds.${linkKind(l)}`) },
    { id: 'created', header: t('roomLinks:columns.created'), cell: (l) => dateFormat.format(l.createdAt) },
    { id: 'by', header: t('roomLinks:columns.by'), cell: (l) => <PersonName name={l.createdByName} email={l.createdBy} /> },
    { id: 'expires', header: t('roomLinks:columns.expires'), cell: (l) => dateFormat.format(l.expiresAt) },
    { id: 'state', header: t('roomLinks:columns.state'), cell: (l) => t(`roomLinks:states.${l.state}`) },
    {
      id: 'downloads',
      header: t('roomLinks:columns.use'),
      cell: (l) =>
        'kind' in l && l.kind === 'drop'
          ? t('roomLinks:uploadsCount', { count: l.uploads })
          : l.maxDownloads === null
            ? t('roomLinks:downloadsCount', { count: l.downloads })
            : t('roomLinks:downloadsOfLimit', { done: l.downloads, limit: l.maxDownloads }),
    },
    { id: 'password', header: t('roomLinks:columns.password'), cell: (l) => (l.passwordProtected ? t('roomLinks:passwordYes') : t('roomLinks:passwordNo')) },
    {
      id: 'actions',
      header: t('roomLinks:columns.actions'),
      cell: (l) =>
        l.state === 'active' ? (
          <Button size="small" onClick={() => setRevoking(l)} aria-label={t('roomLinks:revokeFor', { kind: t(`roomLinks:kinds.${linkKind(l)}`), date: dateFormat.format(l.createdAt) })}>
            {t('roomLinks:revoke')}
          </Button>
        ) : null,
    },
  ];

  return (
    <>
      <Dialog open={open && revoking === null} onOpenChange={(_e, data) => (data.open ? undefined : close())}>
        <DialogSurface className={styles.surface}>
          <DialogBody>
            <DialogTitle>{text.title}</DialogTitle>
            <DialogContent className={styles.content}>
              <Text as="p" style={{ margin: 0 }}>
                {text.intro}
              </Text>
              <div className={styles.row}>
                <Field label={t('roomLinks:expiryDate')} hint={t('roomLinks:expiryHint', { max: ROOM_LINK_MAX_DAYS })}>
                  <Suspense fallback={<Spinner size="tiny" label={t('common:loading')} />}>
                    <ExpiryDatePicker label={t('roomLinks:expiryDate')} value={expiry} min={endOfDayIn(0)} max={endOfDayIn(ROOM_LINK_MAX_DAYS)} onChange={(date) => setExpiry(endOfDayIn(0, date))} />
                  </Suspense>
                </Field>
                <Field
                  label={t('roomLinks:password')}
                  hint={t('roomLinks:passwordHint', { min: ROOM_LINK_PASSWORD_MIN })}
                  validationState={passwordTooShort ? 'error' : 'none'}
                  validationMessage={passwordTooShort ? t('roomLinks:passwordTooShort', { min: ROOM_LINK_PASSWORD_MIN }) : undefined}
                >
                  <Input type="password" autoComplete="new-password" value={password} maxLength={ROOM_LINK_PASSWORD_MAX} data-testid="room-link-password" onChange={(_e, data) => setPassword(data.value)} />
                </Field>
                {withLimit ? (
                  <Field
                    label={t('roomLinks:limit')}
                    hint={t('roomLinks:limitHint')}
                    validationState={limitInvalid ? 'error' : 'none'}
                    validationMessage={limitInvalid ? t('roomLinks:limitInvalid', { max: ROOM_LINK_MAX_DOWNLOADS }) : undefined}
                  >
                    <Input type="number" min={1} max={ROOM_LINK_MAX_DOWNLOADS} value={limit} data-testid="room-link-limit" onChange={(_e, data) => setLimit(data.value)} />
                  </Field>
                ) : null}
                <Button appearance="primary" icon={<LinkRegular />} disabled={busy || passwordTooShort || limitInvalid} onClick={() => void create()}>
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
                  {/* What the recipient sees: the landing page. */}
                  <Button as="a" href={created.url} target="_blank" rel="noopener noreferrer" icon={<OpenRegular />}>
                    {t('roomLinks:openLink')}
                  </Button>
                </div>
              ) : null}
              <h3 id="room-links-heading" className={styles.heading}>
                {text.listTitle}
              </h3>
              {links.error ? (
                <Alert type="error">{t('roomLinks:loadError')}</Alert>
              ) : !links.data ? (
                <Spinner size="small" label={t('common:loading')} />
              ) : (
                <DataTable labelledBy="room-links-heading" columns={columns} rows={links.data.links} rowKey={(l) => l.uuid} empty={<Text as="p">{text.empty}</Text>} />
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
                {revoking && linkKind(revoking) === 'drop' ? t('roomLinks:confirmTextDrop', { name }) : t('roomLinks:confirmText', { name })}
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
