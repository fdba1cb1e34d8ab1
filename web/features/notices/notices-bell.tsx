import { Badge, Button, DrawerBody, DrawerHeader, DrawerHeaderTitle, makeStyles, OverlayDrawer, tokens } from '@fluentui/react-components';
import { AlertRegular, DismissRegular } from '@fluentui/react-icons';
import { call } from '@shared/api/call';
import { NOTICE_ENDPOINTS } from '@shared/contract/endpoints/notices';
import type { Notice, NoticeList } from '@shared/contract/notices';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { ROUTES } from '@web/lib/routes';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

/** How often the bell asks again while the page stays open (and on focus, as SWR does). */
const REFRESH_MS = 60_000;

const useStyles = makeStyles({
  button: { position: 'relative' },
  badge: { position: 'absolute', top: '-4px', right: '-4px' },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '12px' },
  item: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, paddingBottom: '10px', display: 'flex', flexDirection: 'column', gap: '4px' },
  unread: { fontWeight: tokens.fontWeightSemibold },
  when: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  actions: { marginBottom: '12px' },
});

/** What a notice says, in the user's language; a Secure room is never named (as in the mails). */
export function noticeText(t: TFunction, notice: Notice): string {
  const room = notice.secure || notice.roomName === null ? t('shell:notices.secureRoom') : t('shell:notices.namedRoom', { name: notice.roomName });
  const actor = notice.actorName ?? t('shell:notices.someone');
  const role = notice.role ? t(`rooms:roles.${notice.role}`, { defaultValue: notice.role }) : '';
  return t(`shell:notices.kind.${notice.kind}`, { room, actor, role });
}

/**
 * The bell in the header (issue 32 §1; shared/contract/notices.ts): the unread count on the button,
 * the notices in a drawer, newest first; opening one marks it read and goes to its room.
 */
export function NoticesBell({ buttonClassName }: { buttonClassName?: string }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const { user } = useAuthState();
  const [open, setOpen] = useState(false);
  const notices = useSWR(user ? ['notices', user.uuid] : null, (): Promise<NoticeList> => call(apiClient, NOTICE_ENDPOINTS.list, { query: { page: 1, pageSize: 20 } }), {
    refreshInterval: REFRESH_MS,
  });
  const unread = notices.data?.unread ?? 0;
  const items = notices.data?.items ?? [];

  const markRead = async (notice: Notice) => {
    setOpen(false);
    if (notice.read) return;
    await call(apiClient, NOTICE_ENDPOINTS.read, { params: { noticeUuid: notice.uuid } }).catch(() => undefined);
    await notices.mutate();
  };
  const markAllRead = async () => {
    await call(apiClient, NOTICE_ENDPOINTS.readAll, {});
    await notices.mutate();
  };
  const when = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  return (
    <>
      <span className={styles.button}>
        <Button
          appearance="transparent"
          className={buttonClassName}
          icon={<AlertRegular />}
          aria-label={unread > 0 ? t('shell:notices.openUnread', { count: unread }) : t('shell:notices.open')}
          onClick={() => setOpen(true)}
        />
        {unread > 0 ? <Badge className={styles.badge} size="small" color="danger" aria-hidden>{unread}</Badge> : null}
      </span>
      <OverlayDrawer open={open} position="end" size="small" onOpenChange={(_, data) => setOpen(data.open)} aria-label={t('shell:notices.title')}>
        <DrawerHeader>
          <DrawerHeaderTitle action={<Button appearance="subtle" icon={<DismissRegular />} aria-label={t('shell:notices.close')} onClick={() => setOpen(false)} />}>
            {t('shell:notices.title')}
          </DrawerHeaderTitle>
        </DrawerHeader>
        <DrawerBody>
          {notices.error ? <p role="alert">{t('shell:notices.loadError')}</p> : null}
          {unread > 0 ? (
            <div className={styles.actions}>
              <Button onClick={() => void markAllRead()}>{t('shell:notices.readAll')}</Button>
            </div>
          ) : null}
          {notices.data && items.length === 0 ? <p>{t('shell:notices.empty')}</p> : null}
          <ul className={styles.list}>
            {items.map((notice) => (
              <li key={notice.uuid} className={styles.item}>
                <RouterLink
                  to={notice.secure ? ROUTES.secureRoom(notice.roomUuid) : ROUTES.room(notice.roomUuid)}
                  onClick={() => void markRead(notice)}
                >
                  <span className={notice.read ? undefined : styles.unread}>{noticeText(t, notice)}</span>
                </RouterLink>
                <span className={styles.when}>
                  {when(notice.createdAt)}
                  {notice.read ? '' : ` · ${t('shell:notices.unread')}`}
                </span>
              </li>
            ))}
          </ul>
        </DrawerBody>
      </OverlayDrawer>
    </>
  );
}
