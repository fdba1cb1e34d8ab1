import { Badge, Button, Field, makeStyles, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, SearchBox, Spinner, Text } from '@fluentui/react-components';
import { MoreHorizontalRegular, PersonAddRegular } from '@fluentui/react-icons';
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
import { deleteUser, resendInvitation, resetUserTotp, setUserDisabled } from './api/user-admin';
import { BannedRecipientsSection } from './banned-recipients';
import { mayManage } from './role-groups';
import { ConfirmDialog, displayName, UserFormDialog, type ConfirmRequest } from './user-dialogs';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const PAGE_SIZE = 25;

const useStyles = makeStyles({
  toolbar: { display: 'flex', gap: '12px', alignItems: 'end', flexWrap: 'wrap', marginBottom: '16px' },
  pager: { display: 'flex', gap: '12px', alignItems: 'center', marginTop: '16px', flexWrap: 'wrap' },
});

function SecuPassBadge({ state }: { state: AdminUser['secupassState'] }) {
  const { t } = useTranslation();
  const color = state === 'active' ? 'success' : state === 'reset' ? 'warning' : 'subtle';
  return (
    <Badge appearance="tint" color={color === 'subtle' ? 'informative' : color}>
      {t(`admin:users.secupassState.${state}`)}
    </Badge>
  );
}

function StatusBadge({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  if (user.disabled) return <Badge appearance="tint" color="danger">{t('admin:users.disabled')}</Badge>;
  // Submit-box partners and level 3/4 form senders (ROLE_SUBMITTER only): accounts without sign-in, not "Active" users.
  if (user.roleNames.length === 1 && user.roleNames[0] === 'ROLE_SUBMITTER') return <Badge appearance="tint" color="informative">{t('admin:users.submitter')}</Badge>;
  if (!user.emailVerified) return <Badge appearance="tint" color="warning">{t('admin:users.unverified')}</Badge>;
  return <Badge appearance="tint" color="success">{t('admin:users.enabled')}</Badge>;
}

/** The row's actions in a menu; what the caller may not do is disabled (the server refuses it too). */
function UserActions({
  user,
  manageable,
  self,
  onEdit,
  onConfirm,
  onInvitationSent,
}: {
  user: AdminUser;
  manageable: boolean;
  self: boolean;
  onEdit: () => void;
  onConfirm: (request: ConfirmRequest) => void;
  onInvitationSent: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const name = displayName(user);
  const resetSecuPass = (): ConfirmRequest => ({
    title: t('admin:users.reset.confirmTitle', { name }),
    intro: t('admin:users.reset.confirmIntro', { email: user.email }),
    consequences: [t('admin:users.reset.consequenceAccess'), t('admin:users.reset.consequenceRelease'), t('admin:users.reset.consequenceMail'), t('admin:users.reset.consequenceFinal')],
    confirmLabel: t('admin:users.reset.confirm'),
    run: () => resetUserSecuPass(user.uuid),
    done: t('admin:users.reset.done', { name }),
    failed: t('admin:users.reset.failed', { name }),
  });
  const resetTotp = (): ConfirmRequest => ({
    title: t('admin:users.totpReset.confirmTitle', { name }),
    intro: t('admin:users.totpReset.confirmIntro', { email: user.email }),
    consequences: [t('admin:users.totpReset.consequenceSignIn'), t('admin:users.totpReset.consequenceIdentity')],
    confirmLabel: t('admin:users.totpReset.confirm'),
    run: () => resetUserTotp(user.uuid),
    done: t('admin:users.totpReset.done', { name }),
    failed: t('admin:users.totpReset.failed', { name }),
  });
  const disable = (): ConfirmRequest => ({
    title: t('admin:users.disable.confirmTitle', { name }),
    intro: t('admin:users.disable.confirmIntro', { email: user.email }),
    consequences: [t('admin:users.disable.consequenceSessions'), t('admin:users.disable.consequenceSignIn'), t('admin:users.disable.consequenceKept')],
    confirmLabel: t('admin:users.disable.confirm'),
    run: async () => void (await setUserDisabled(user.uuid, true)),
    done: t('admin:users.disable.done', { name }),
    failed: t('admin:users.disable.failed', { name }),
  });
  const remove = (): ConfirmRequest => ({
    title: t('admin:users.delete.confirmTitle', { name }),
    intro: t('admin:users.delete.confirmIntro', { email: user.email }),
    consequences: [t('admin:users.delete.consequenceSent'), t('admin:users.delete.consequenceReceived'), t('admin:users.delete.consequenceKeys'), t('admin:users.delete.consequenceFinal')],
    confirmLabel: t('admin:users.delete.confirm'),
    run: () => deleteUser(user.uuid),
    done: t('admin:users.delete.done', { name }),
    failed: t('admin:users.delete.failed', { name }),
  });

  async function enable() {
    try {
      await setUserDisabled(user.uuid, false);
      notify('success', t('admin:users.enable.done', { name }));
      onInvitationSent();
    } catch {
      notify('error', t('admin:users.enable.failed', { name }));
    }
  }

  async function invite() {
    try {
      await resendInvitation(user.uuid);
      notify('success', t('admin:users.invitation.done', { email: user.email }));
      onInvitationSent();
    } catch {
      notify('error', t('admin:users.invitation.failed', { email: user.email }));
    }
  }

  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" icon={<MoreHorizontalRegular />} aria-label={t('admin:users.actionsFor', { name })} />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem disabled={!manageable} onClick={onEdit}>
            {t('admin:users.edit.action')}
          </MenuItem>
          {user.emailVerified ? null : (
            <MenuItem disabled={!manageable} onClick={() => void invite()}>
              {t('admin:users.invitation.action')}
            </MenuItem>
          )}
          <MenuItem disabled={!manageable || user.secupassState !== 'active'} onClick={() => onConfirm(resetSecuPass())}>
            {t('admin:users.reset.action')}
          </MenuItem>
          <MenuItem disabled={!manageable || !user.totpEnabled} onClick={() => {
            track(ANALYTICS_ACTIONS.tfaResetButton);
            onConfirm(resetTotp());
          }}>
            {t('admin:users.totpReset.action')}
          </MenuItem>
          {user.disabled ? (
            <MenuItem disabled={!manageable} onClick={() => void enable()}>
              {t('admin:users.enable.action')}
            </MenuItem>
          ) : (
            <MenuItem disabled={!manageable || self} onClick={() => onConfirm(disable())}>
              {t('admin:users.disable.action')}
            </MenuItem>
          )}
          <MenuItem disabled={!manageable || self} onClick={() => onConfirm(remove())}>
            {t('admin:users.delete.action')}
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/**
 * User administration (SPEC §2 administration area, issue 17 §1): list, search, paging; create
 * (invitation), edit names, language and roles, licence and sender group (administrators),
 * disable/enable, delete, passphrase and authentication-app resets, banned recipients.
 */
export function AdminUsersPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);
  // null: closed; 'new': create; a user: edit. The key makes each opening start from fresh values.
  const [editing, setEditing] = useState<AdminUser | 'new' | null>(null);
  const me = useAuthState().user;

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
  const isAdmin = me?.roleNames.includes('ROLE_ADMIN') === true;
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
    { id: 'status', header: t('admin:users.columns.status'), cell: (user) => <StatusBadge user={user} /> },
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
        <UserActions
          user={user}
          manageable={mayManage(me?.roleNames ?? [], user.roleNames)}
          self={me?.uuid === user.uuid}
          onEdit={() => setEditing(user)}
          onConfirm={setConfirming}
          onInvitationSent={() => void users.mutate()}
        />
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
        <Button appearance="primary" icon={<PersonAddRegular />} onClick={() => setEditing('new')}>
          {t('admin:users.create.action')}
        </Button>
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
      <BannedRecipientsSection />
      <UserFormDialog
        key={editing === null ? 'closed' : editing === 'new' ? 'new' : editing.uuid}
        open={editing !== null}
        user={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onDone={() => void users.mutate()}
      />
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} onDone={() => void users.mutate()} />
    </>
  );
}
