import { Body1, Button, Card, makeStyles, Spinner } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { API_BASE } from '@shared/contract/constants';
import { ROOM_LINK_PAGE, ROOM_LINK_PATHS } from '@shared/contract/room-links';
import { PageHeading } from '@web/components/page-heading';
import { formatSize } from '@web/lib/format-size';
import { useFragmentToken } from '@web/lib/fragment-token';
import { currentLanguage } from '@web/lib/i18n';
import { startPlainDownload } from '@web/lib/plain-download';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import useSWR from 'swr';
import { getRoomLinkInfo, roomLinkTokenHeaders } from './api';
import { LinkRefusal } from './link-password-card';

const useStyles = makeStyles({
  card: { maxWidth: '560px', margin: '0 auto', padding: '24px', display: 'grid', gap: '16px' },
  facts: { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: '16px', rowGap: '8px', margin: 0 },
  term: { fontWeight: 600 },
  value: { margin: 0, overflowWrap: 'anywhere' },
  download: { justifySelf: 'start' },
});

/**
 * The landing page of a public link to a room file (`/room-link#token=…`, no sign-in): the file's
 * name, size and the link's expiry with a Download button (the public content call), or a message
 * page saying why the link does not work. The token stays in the fragment and goes to the API only
 * in the x-room-link-token header (issue 28); a link handed out before (`/room-link/{token}`) opens
 * too, its address rewritten to the fragment form. The download is a transfer (lib/plain-download.ts):
 * a browser navigation could not carry the header. A protected link first asks for its password
 * (sent in the x-room-link-password header with each call, kept in this page's memory only); a link
 * with a download limit shows the downloads left, and once used up says so (410 linkUsedUp).
 */
export function RoomLinkPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const { token: pathToken } = useParams();
  const token = useFragmentToken('token', { legacy: pathToken, pathname: ROOM_LINK_PAGE }) ?? '';
  const [password, setPassword] = useState('');
  const info = useSWR(['room-link/public', token, password], () => getRoomLinkInfo(token, password), { revalidateOnFocus: false, shouldRetryOnError: false });
  const language = currentLanguage();
  const [lateError, setLateError] = useState<unknown>(null);
  const error: unknown = info.error ?? lateError;

  // Asks again before the download: a link revoked, expired or used up since the page opened shows its message, not the server's raw answer.
  async function download(file: { name: string; size: number }) {
    try {
      await getRoomLinkInfo(token, password);
    } catch (refusal) {
      setLateError(refusal);
      return;
    }
    const { done } = await startPlainDownload({ url: `${API_BASE}${ROOM_LINK_PATHS.content}`, name: file.name, size: file.size, headers: roomLinkTokenHeaders(token, password) });
    // The server counts a download once its last byte went out: ask for the downloads left then.
    await done.catch(() => undefined);
    await info.mutate();
  }

  if (error) {
    return (
      <LinkRefusal
        error={error}
        busy={info.isLoading}
        testId="room-link-page-password"
        onPassword={(typed) => {
          setLateError(null);
          setPassword(typed);
        }}
      />
    );
  }
  if (!info.data) return <Spinner label={t('common:loading')} />;
  const { name, size, expiresAt, downloadsLeft } = info.data;
  return (
    <Card className={styles.card}>
      <PageHeading focusOnMount>{t('roomLinks:page.title')}</PageHeading>
      <Body1 as="p" style={{ margin: 0 }}>
        {t('roomLinks:page.intro')}
      </Body1>
      <dl className={styles.facts}>
        <dt className={styles.term}>{t('roomLinks:page.name')}</dt>
        <dd className={styles.value} data-testid="room-link-name">
          {name}
        </dd>
        <dt className={styles.term}>{t('roomLinks:page.size')}</dt>
        <dd className={styles.value}>{formatSize(size, language)}</dd>
        <dt className={styles.term}>{t('roomLinks:page.expires')}</dt>
        <dd className={styles.value}>{new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(expiresAt)}</dd>
        {downloadsLeft === null ? null : (
          <>
            <dt className={styles.term}>{t('roomLinks:page.downloadsLeft')}</dt>
            <dd className={styles.value} data-testid="room-link-downloads-left">
              {downloadsLeft}
            </dd>
          </>
        )}
      </dl>
      <Button appearance="primary" icon={<ArrowDownloadRegular />} className={styles.download} onClick={() => void download({ name, size })}>
        {t('roomLinks:page.download')}
      </Button>
    </Card>
  );
}
