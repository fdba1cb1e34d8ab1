import { Button, Checkbox, Field, Input, makeStyles, Select, Switch, Text } from '@fluentui/react-components';
import type { AdminUser } from '@shared/contract/admin-users';
import { SECURITY_LEVEL_ORDER, SECURITY_LEVEL_TABLE, SERVER_READABLE_LEVELS, securityLevelInfo } from '@shared/contract/security-levels';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { MAX_SENDER_GROUP_NAME, type SenderGroup } from '@shared/contract/sender-groups';
import { DataTable } from '@web/components/data-table';
import { Alert } from '@web/components/alert';
import { FormDialog } from '@web/components/form-dialog';
import { useNotify } from '@web/lib/toasts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { licenceLimitText } from './api/licence';
import { createSenderGroup, deleteSenderGroup, setUserSender, updateSenderGroup, useSenderGroups } from './api/sender-groups';


const useStyles = makeStyles({
  section: { marginTop: '32px', display: 'flex', flexDirection: 'column', gap: '12px' },
  form: { display: 'flex', gap: '12px', alignItems: 'end', flexWrap: 'wrap' },
  levels: { display: 'flex', gap: '4px', flexWrap: 'wrap' },
  actions: { display: 'flex', gap: '8px' },
});

/** The four level checkboxes of a group (a fieldset, so screen readers name the group). */
function LevelChoice({ value, onChange, idPrefix }: { value: SecurityLevel[]; onChange: (levels: SecurityLevel[]) => void; idPrefix: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <fieldset className={styles.levels} style={{ border: 'none', padding: 0, margin: 0 }}>
      <legend>{t('admin:senderGroups.levels')}</legend>
      {SECURITY_LEVEL_TABLE.map(({ wire: level, textKey: key }) => (
        <Checkbox
          key={level}
          id={`${idPrefix}-${key}`}
          label={t(`admin:senderGroups.${key}`)}
          checked={value.includes(level)}
          onChange={(_e, data) => onChange(data.checked ? SECURITY_LEVEL_ORDER.filter((l) => l === level || value.includes(l)) : value.filter((l) => l !== level))}
        />
      ))}
    </fieldset>
  );
}

function EditGroupDialog({ group, onClose, onDone }: { group: SenderGroup | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [name, setName] = useState(group?.name ?? '');
  const [levels, setLevels] = useState<SecurityLevel[]>(group?.levels ?? []);
  const [pending, setPending] = useState(false);
  if (!group) return null;
  async function save(event: FormEvent) {
    event.preventDefault();
    if (!group || name.trim() === '' || levels.length === 0) return;
    setPending(true);
    try {
      await updateSenderGroup(group.groupUuid, { name: name.trim(), levels });
      notify('success', t('admin:senderGroups.saved', { name: name.trim() }));
      onDone();
      onClose();
    } catch {
      notify('error', t('admin:senderGroups.saveFailed'));
    } finally {
      setPending(false);
    }
  }
  return (
    <FormDialog
      open
      onClose={onClose}
      title={t('admin:senderGroups.editTitle', { name: group.name })}
      onSubmit={save}
      submitLabel={t('admin:senderGroups.save')}
      submitDisabled={pending || name.trim() === '' || levels.length === 0}
    >
      <Field label={t('admin:senderGroups.name')} required>
        <Input value={name} maxLength={MAX_SENDER_GROUP_NAME} onChange={(_e, data) => setName(data.value)} />
      </Field>
      <LevelChoice value={levels} onChange={setLevels} idPrefix={`edit-${group.groupUuid}`} />
    </FormDialog>
  );
}

/** Sender groups (SPEC §3: which security levels a user may send with); ROLE_ADMIN only. */
export function SenderGroupsSection({ onChange }: { onChange: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const groups = useSenderGroups(true);
  const [name, setName] = useState('');
  const [levels, setLevels] = useState<SecurityLevel[]>([...SERVER_READABLE_LEVELS]);
  const [editing, setEditing] = useState<SenderGroup | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function create(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (name.trim() === '' || levels.length === 0) {
      setError(t('admin:senderGroups.incomplete'));
      return;
    }
    try {
      await createSenderGroup(name.trim(), levels);
      notify('success', t('admin:senderGroups.created', { name: name.trim() }));
      setName('');
      await groups.mutate();
    } catch {
      setError(t('admin:senderGroups.saveFailed'));
    }
  }

  async function remove(group: SenderGroup) {
    try {
      await deleteSenderGroup(group.groupUuid);
      notify('success', t('admin:senderGroups.deleted', { name: group.name }));
      await groups.mutate();
      onChange();
    } catch {
      notify('error', t('admin:senderGroups.saveFailed'));
    }
  }

  return (
    <section className={styles.section} aria-labelledby="sender-groups-title">
      <Text as="h2" size={500} weight="semibold" id="sender-groups-title">
        {t('admin:senderGroups.title')}
      </Text>
      <Text as="p">{t('admin:senderGroups.intro')}</Text>
      <DataTable
        label={t('admin:senderGroups.title')}
        columns={[
          { id: 'name', header: t('admin:senderGroups.name'), cell: (group: SenderGroup) => group.name },
          {
            id: 'levels',
            header: t('admin:senderGroups.levels'),
            cell: (group: SenderGroup) => group.levels.map((l) => t(`admin:senderGroups.${securityLevelInfo(l).textKey}`)).join(', '),
          },
          { id: 'members', header: t('admin:senderGroups.members'), cell: (group: SenderGroup) => group.memberCount },
          {
            id: 'actions',
            header: t('admin:users.columns.actions'),
            cell: (group: SenderGroup) => (
              <div className={styles.actions}>
                <Button size="small" aria-label={t('admin:senderGroups.editFor', { name: group.name })} onClick={() => setEditing(group)}>
                  {t('admin:senderGroups.edit')}
                </Button>
                <Button size="small" aria-label={t('admin:senderGroups.deleteFor', { name: group.name })} onClick={() => void remove(group)}>
                  {t('admin:senderGroups.delete')}
                </Button>
              </div>
            ),
          },
        ]}
        rows={groups.data?.groups}
        rowKey={(group) => group.groupUuid}
        {...(groups.error ? { error: t('admin:senderGroups.loadError') } : {})}
      />
      <form className={styles.form} onSubmit={(e) => void create(e)} aria-label={t('admin:senderGroups.create')}>
        <Field label={t('admin:senderGroups.name')} required>
          <Input value={name} maxLength={MAX_SENDER_GROUP_NAME} onChange={(_e, data) => setName(data.value)} />
        </Field>
        <LevelChoice value={levels} onChange={setLevels} idPrefix="new-group" />
        <Button type="submit" appearance="primary">
          {t('admin:senderGroups.create')}
        </Button>
      </form>
      {error ? <Alert type="error">{error}</Alert> : null}
      {editing ? (
        <EditGroupDialog
          key={editing.groupUuid}
          group={editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            void groups.mutate();
            onChange();
          }}
        />
      ) : null}
    </section>
  );
}

/** Saves a user's licence or group; the users table shows the two controls in their own columns. */
function useUserSenderChange(user: AdminUser, onDone: () => void) {
  const { t } = useTranslation();
  const notify = useNotify();
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  async function change(body: { licensed?: boolean; senderGroupUuid?: string | null }) {
    try {
      await setUserSender(user.uuid, body);
      onDone();
    } catch (error) {
      // At the licence cap the refusal names its figures (409 LicenseLimitExceededException).
      notify('error', t('admin:senderGroups.userFailed', { name }), licenceLimitText(t, error) ?? undefined);
    }
  }
  return { name, change };
}

/** A user's licence switch (a cell of the users table). */
export function UserLicenceSwitch({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const { t } = useTranslation();
  const { name, change } = useUserSenderChange(user, onDone);
  return <Switch checked={user.licensed} aria-label={t('admin:senderGroups.licensedFor', { name })} onChange={(_e, data) => void change({ licensed: data.checked })} />;
}

/** A user's sender group choice (a cell of the users table). */
export function UserGroupSelect({ user, groups, onDone }: { user: AdminUser; groups: SenderGroup[]; onDone: () => void }) {
  const { t } = useTranslation();
  const { name, change } = useUserSenderChange(user, onDone);
  return (
    <Select
      aria-label={t('admin:senderGroups.groupFor', { name })}
      value={user.senderGroupUuid ?? ''}
      onChange={(_e, data) => void change({ senderGroupUuid: data.value === '' ? null : data.value })}
    >
      <option value="">{t('admin:senderGroups.noGroup')}</option>
      {groups.map((g) => (
        <option key={g.groupUuid} value={g.groupUuid}>
          {g.name}
        </option>
      ))}
    </Select>
  );
}
