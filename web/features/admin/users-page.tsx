import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Field,
  makeStyles,
  SearchBox,
  Spinner,
  Text,
} from '@fluentui/react-components';
import type { AdminUser } from '@shared/contract/admin-users';
import { DataTable, type DataTableColumn } from '@web/components/data-table';
import { PageHeading } from '@web/components/page-heading';
import { useNotify } from '@web/lib/toasts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUsers } from './api/list-users';
import { useAuthState } from '@web/lib/auth';
import { useSenderGroups } from './api/sender-groups';
import { SenderGroupsSection, UserGroupSelect, UserLicenceSwitch } from './sender-groups';
import { resetUserSecuPass } from './api/reset-secupass';

const PAGE_SIZE = 25;

const useStyles = makeStyles({
  toolbar: { display: 'flex', gap: '12px', alignItems: 'end', flexWrap: 'wrap', marginBottom: '16px' },
  pager: { display: 'flex', gap: '12px', alignItems: 'center', marginTop: '16px', flexWrap: 'wrap' },
  consequences: { margin: '8px 0 0', paddingLeft: '20px', display: 'grid', gap: '6px' },
});

function displayName(user: AdminUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username || user.email;
}

function SecuPassBadge({ state }: { state: AdminUser['secupassState'] }) {
  const { t } = useTranslation();
  const color = state === 'active' ? 'success' : state === 'reset' ? 'warning' : 'subtle';
  return (
    <Badge appearance="tint" color={color === 'subtle' ? 'informative' : color}>
      {t(`admin:users.secupassState.${state}`)}
    </Badge>
  );
}

/** Confirms an admin passphrase reset, naming its consequences (SPEC §6, DESIGN §3). */
function ResetSecuPassDialog({ user, onClose, onDone }: { user: AdminUser | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const [pending, setPending] = useState(false);

  async function reset() {
    if (!user) return;
    setPending(true);
    try {
      await resetUserSecuPass(user.uuid);
      notify('success', t('admin:users.reset.done', { name: displayName(user) }));
      onDone();
      onClose();
    } catch {
      notify('error', t('admin:users.reset.failed', { name: displayName(user) }));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open={user !== null} onOpenChange={(_e, data) => (data.open ? undefined : onClose())} modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('admin:users.reset.confirmTitle', { name: user ? displayName(user) : '' })}</DialogTitle>
          <DialogContent>
            <Text as="p" style={{ margin: 0 }}>
              {t('admin:users.reset.confirmIntro', { email: user?.email ?? '' })}
            </Text>
            <ul className={styles.consequences}>
              <li>{t('admin:users.reset.consequenceAccess')}</li>
              <li>{t('admin:users.reset.consequenceRelease')}</li>
              <li>{t('admin:users.reset.consequenceMail')}</li>
              <li>{t('admin:users.reset.consequenceFinal')}</li>
            </ul>
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="secondary">{t('common:actions.cancel')}</Button>
            </DialogTrigger>
            <Button appearance="primary" onClick={() => void reset()} disabled={pending}>
              {t('admin:users.reset.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** User administration (SPEC §2 administration area): list, search, paging, passphrase reset. */
export function AdminUsersPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [resetting, setResetting] = useState<AdminUser | null>(null);

  // Search as you type, once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(search.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [search]);

  const users = useUsers({ q: query, page, pageSize: PAGE_SIZE });
  // Licences and sender groups are the administrator's (ROLE_ADMIN), not the user administrator's.
  const isAdmin = useAuthState().user?.roleNames.includes('ROLE_ADMIN') === true;
  const groups = useSenderGroups(isAdmin);
  const senderChanged = () => {
    void users.mutate();
    // Member counts of the groups change with an assignment.
    void groups.mutate();
  };
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const columns: DataTableColumn<AdminUser>[] = [
    { id: 'name', header: t('admin:users.columns.name'), cell: (user) => displayName(user) },
    { id: 'email', header: t('admin:users.columns.email'), cell: (user) => user.email },
    { id: 'status', header: t('admin:users.columns.status'), cell: (user) => (user.disabled ? t('admin:users.disabled') : t('admin:users.enabled')) },
    { id: 'secupass', header: t('admin:users.columns.secupass'), cell: (user) => <SecuPassBadge state={user.secupassState} /> },
    ...(isAdmin
      ? [
          { id: 'licensed', header: t('admin:users.columns.licensed'), cell: (user: AdminUser) => <UserLicenceSwitch user={user} onDone={senderChanged} /> },
          {
            id: 'senderGroup',
            header: t('admin:users.columns.senderGroup'),
            cell: (user: AdminUser) => <UserGroupSelect user={user} groups={groups.data?.groups ?? []} onDone={senderChanged} />,
          },
        ]
      : []),
    {
      id: 'actions',
      header: t('admin:users.columns.actions'),
      cell: (user) => (
        <Button
          size="small"
          disabled={user.secupassState !== 'active'}
          aria-label={t('admin:users.reset.actionFor', { name: displayName(user) })}
          onClick={() => setResetting(user)}
        >
          {t('admin:users.reset.action')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageHeading focusOnMount>{t('admin:users.title')}</PageHeading>
      <div className={styles.toolbar}>
        <Field label={t('admin:users.search')}>
          <SearchBox value={search} onChange={(_e, data) => setSearch(data.value)} style={{ minWidth: 280 }} />
        </Field>
        {users.isValidating ? <Spinner size="tiny" label={t('common:loading')} /> : null}
      </div>
      {users.data ? (
        <Text as="p" role="status" aria-live="polite">
          {t('admin:users.total', { total })}
        </Text>
      ) : null}
      <DataTable
        label={t('admin:users.tableLabel')}
        columns={columns}
        rows={users.data?.users}
        rowKey={(user) => user.uuid}
        loading={users.isLoading}
        {...(users.error ? { error: t('admin:users.loadError') } : {})}
        empty={<Text as="p">{t('admin:users.empty')}</Text>}
      />
      {users.data ? (
        <nav className={styles.pager} aria-label={t('admin:users.paging')}>
          <Button disabled={page <= 1} onClick={() => setPage((current) => current - 1)}>
            {t('admin:users.previous')}
          </Button>
          <Text>{t('admin:users.pageOf', { page, pages })}</Text>
          <Button disabled={page >= pages} onClick={() => setPage((current) => current + 1)}>
            {t('admin:users.next')}
          </Button>
        </nav>
      ) : null}
      {isAdmin ? <SenderGroupsSection onChange={senderChanged} /> : null}
      <ResetSecuPassDialog user={resetting} onClose={() => setResetting(null)} onDone={() => void users.mutate()} />
    </>
  );
}
