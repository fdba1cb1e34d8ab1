import { Body1, Button, Card, Field, makeStyles, Spinner } from '@fluentui/react-components';
import { ArrowDownloadRegular, FolderRegular } from '@fluentui/react-icons';
import { API_BASE } from '@shared/contract/constants';
import { ROOM_FOLDER_LINK_PAGE, ROOM_FOLDER_LINK_PATHS } from '@shared/contract/room-folder-links';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { formatSize } from '@web/lib/format-size';
import { useFragmentToken } from '@web/lib/fragment-token';
import { currentLanguage } from '@web/lib/i18n';
import { startPlainDownload } from '@web/lib/plain-download';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { roomLinkTokenHeaders } from './api';
import { dropFile, getFolderLinkInfo } from './folder-link-api';
import { LinkRefusal } from './link-password-card';

const useStyles = makeStyles({
  card: { maxWidth: '720px', margin: '0 auto', padding: '24px', display: 'grid', gap: '16px' },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '8px' },
  row: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  name: { flexGrow: 1, overflowWrap: 'anywhere' },
});

/**
 * The landing page of a folder or drop link (`/room-folder-link#token=…`, no sign-in; server/README
 * "Public links to room folders"). A folder link lists the folder (subfolders open in place, a path
 * leads back), downloads each file and the listed folder as a ZIP; a drop link shows the folder's
 * name and a file picker, nothing of the content. A protected link first asks for its password (kept
 * in this page's memory only); expired, used up or revoked links say so.
 */
export function RoomFolderLinkPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const token = useFragmentToken('token', { pathname: ROOM_FOLDER_LINK_PAGE }) ?? '';
  const [password, setPassword] = useState('');
  const [folderUuid, setFolderUuid] = useState<string | undefined>(undefined);
  const [sent, setSent] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [lateError, setLateError] = useState<unknown>(null);
  const info = useSWR(['room-folder-link/public', token, password, folderUuid], () => getFolderLinkInfo(token, password, folderUuid), { revalidateOnFocus: false, shouldRetryOnError: false });
  const language = currentLanguage();
  const error: unknown = info.error ?? lateError;
  const headers = roomLinkTokenHeaders(token, password);

  async function download(url: string, name: string, size?: number) {
    const { done } = await startPlainDownload({ url: `${API_BASE}${url}`, name, size, headers });
    // The server counts a download once its last byte went out: ask for the downloads left then.
    await done.catch(() => undefined);
    await info.mutate();
  }

  async function upload(files: File[]) {
    setBusy(true);
    try {
      for (const file of files) {
        await dropFile(token, password, file);
        setSent((done) => [...done, file.name]);
      }
    } catch (refusal) {
      setLateError(refusal);
    } finally {
      setBusy(false);
    }
  }

  if (error) {
    return (
      <LinkRefusal
        error={error}
        busy={info.isLoading}
        testId="folder-link-password"
        onPassword={(typed) => {
          setLateError(null);
          setPassword(typed);
        }}
      />
    );
  }
  if (!info.data) return <Spinner label={t('common:loading')} />;
  const data = info.data;
  const expires = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(data.expiresAt);

  if (data.kind === 'drop') {
    return (
      <Card className={styles.card}>
        <PageHeading focusOnMount>{t('roomLinks:folderPage.dropTitle', { name: data.name })}</PageHeading>
        <Body1 as="p" style={{ margin: 0 }}>
          {t('roomLinks:folderPage.dropIntro', { date: expires })}
        </Body1>
        <Field label={t('roomLinks:folderPage.chooseFiles')}>
          <input type="file" multiple disabled={busy} aria-label={t('roomLinks:folderPage.chooseFiles')} data-testid="folder-link-drop-input" onChange={(event) => void upload([...(event.target.files ?? [])])} />
        </Field>
        {busy ? <Spinner size="tiny" label={t('roomLinks:folderPage.uploading')} /> : null}
        {sent.length > 0 ? (
          <Alert type="success" data-testid="folder-link-dropped">
            {t('roomLinks:folderPage.dropped', { count: sent.length, names: sent.join(', ') })}
          </Alert>
        ) : null}
      </Card>
    );
  }

  return (
    <Card className={styles.card}>
      <PageHeading focusOnMount>{t('roomLinks:folderPage.title', { name: [data.name, ...data.path.map((p) => p.name)].join(' / ') })}</PageHeading>
      <Body1 as="p" style={{ margin: 0 }}>
        {t('roomLinks:folderPage.intro', { date: expires })}
        {data.downloadsLeft === null ? null : ` ${t('roomLinks:folderPage.downloadsLeft', { count: data.downloadsLeft })}`}
      </Body1>
      <div className={styles.row}>
        {folderUuid ? <Button onClick={() => setFolderUuid(data.path.at(-2)?.uuid)}>{t('roomLinks:folderPage.up')}</Button> : null}
        <Button appearance="primary" icon={<ArrowDownloadRegular />} data-testid="folder-link-zip" onClick={() => void download(`${ROOM_FOLDER_LINK_PATHS.zip}${folderUuid ? `?folderUuid=${folderUuid}` : ''}`, `${data.path.at(-1)?.name ?? data.name}.zip`)}>
          {t('roomLinks:folderPage.zip')}
        </Button>
      </div>
      <ul className={styles.list} aria-label={t('roomLinks:folderPage.contents')}>
        {data.folders.map((folder) => (
          <li key={folder.uuid} className={styles.row}>
            <Button appearance="subtle" icon={<FolderRegular />} onClick={() => setFolderUuid(folder.uuid)}>
              {folder.name}
            </Button>
          </li>
        ))}
        {data.files.map((file) => (
          <li key={file.uuid} className={styles.row} data-testid="folder-link-file">
            <span className={styles.name}>{file.name}</span>
            <span>{formatSize(file.size, language)}</span>
            <Button icon={<ArrowDownloadRegular />} aria-label={t('roomLinks:folderPage.downloadFile', { name: file.name })} onClick={() => void download(ROOM_FOLDER_LINK_PATHS.fileContent(file.uuid), file.name, file.size)}>
              {t('roomLinks:page.download')}
            </Button>
          </li>
        ))}
      </ul>
      {data.folders.length + data.files.length === 0 ? <Body1>{t('roomLinks:folderPage.empty')}</Body1> : null}
    </Card>
  );
}
