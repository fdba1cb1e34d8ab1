import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Field,
  Input,
  makeStyles,
  Switch,
  Text,
} from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import type { AdminUser } from '@shared/contract/admin-users';
import type { Language, RoleName } from '@shared/contract/constants';
import { Alert } from '@web/components/alert';
import { FormDialog } from '@web/components/form-dialog';
import { LanguageSelect } from '@web/components/language-select';
import { useAuthState } from '@web/lib/auth';
import { useNotify } from '@web/lib/toasts';
import { currentLanguage } from '@web/lib/i18n';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { licenceLimitText } from './api/licence';
import { createUser, updateUser } from './api/user-admin';
import { UserQuotaField } from './user-quota-field';
import { ADMIN_ONLY_ROLES, DEFAULT_NEW_USER_ROLES, ROLE_GROUPS, roleKey } from './role-groups';

/** The users page's success toasts replace each other: the newest names the user just handled. */
const USER_TOAST = 'admin-users-done';

const useStyles = makeStyles({
  surface: { maxWidth: '760px', width: '100%' },
  form: { display: 'grid', gap: '12px' },
  names: { display: 'grid', gap: '12px', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))' },
  groups: { display: 'grid', gap: '16px', maxHeight: '45vh', overflowY: 'auto', paddingRight: '4px' },
  group: { border: 'none', margin: 0, padding: 0, display: 'grid', gap: '4px' },
  legend: { fontWeight: 600, padding: 0, marginBottom: '4px' },
  hint: { display: 'block', marginLeft: '32px', marginTop: '-6px', color: 'var(--colorNeutralForeground3)' },
  consequences: { margin: '8px 0 0', paddingLeft: '20px', display: 'grid', gap: '6px' },
});

export function displayName(user: Pick<AdminUser, 'firstName' | 'lastName' | 'username' | 'email'>): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username || user.email;
}

/** Every role of SPEC §6 in its group, each with a label and what it allows. */
function RoleChoice({ value, onChange, canGrantAdmin }: { value: RoleName[]; onChange: (roles: RoleName[]) => void; canGrantAdmin: boolean }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <div className={styles.groups}>
      {ROLE_GROUPS.map((group) => (
        <fieldset key={group.id} className={styles.group}>
          <legend className={styles.legend}>{t(`admin:roles.groups.${group.id}`)}</legend>
          {group.roles.map((role) => {
            const hintId = `role-hint-${roleKey(role)}`;
            return (
              <div key={role}>
                <Checkbox
                  // The words only (issue 32 §1: no raw keys); the technical name stays at hand as a tooltip.
                  label={t(`admin:roles.names.${roleKey(role)}`)}
                  title={role}
                  aria-describedby={hintId}
                  checked={value.includes(role)}
                  disabled={!canGrantAdmin && ADMIN_ONLY_ROLES.includes(role)}
                  onChange={(_e, data) => onChange(data.checked ? [...value, role] : value.filter((r) => r !== role))}
                />
                <Text size={200} id={hintId} className={styles.hint}>
                  {t(`admin:roles.hints.${roleKey(role)}`)}
                </Text>
              </div>
            );
          })}
        </fieldset>
      ))}
    </div>
  );
}

/** The message for a refused user change (SPEC §8 error object → a text of ours). */
function failureText(t: (key: string, options?: Record<string, unknown>) => string, error: unknown): string {
  const licence = licenceLimitText(t, error);
  if (licence) return licence;
  if (isApiError(error)) {
    const reason = (error.error?.metadata as { reason?: unknown } | undefined)?.reason;
    if (error.status === 409 && (reason === 'self' || reason === 'lastAdmin')) return t(`admin:users.errors.${reason}`);
    if (error.status === 409) return t('admin:users.errors.exists');
    if (error.status === 403) return t('admin:users.errors.forbidden');
    if (error.status === 400) return t('admin:users.errors.invalid');
    if (error.status === 404) return t('admin:users.errors.notFound');
  }
  return t('admin:users.errors.general');
}

/**
 * Create (an invitation mail goes out: the user sets the password by its link) or edit a user:
 * names, language, roles. Licence and sender group stay in the table (administrators only).
 */
export function UserFormDialog({ open, user, onClose, onDone }: { open: boolean; user: AdminUser | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const canGrantAdmin = useAuthState().user?.roleNames.includes('ROLE_ADMIN') === true;
  const [email, setEmail] = useState(user?.email ?? '');
  const [firstName, setFirstName] = useState(user?.firstName ?? '');
  const [lastName, setLastName] = useState(user?.lastName ?? '');
  const [language, setLanguage] = useState<Language>(user?.language ?? currentLanguage());
  const [roles, setRoles] = useState<RoleName[]>(user ? [...user.roleNames] : [...DEFAULT_NEW_USER_ROLES]);
  const [emailError, setEmailError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // New accounts hold the sender licence unless created without it (at the licence cap, for instance).
  const [licensed, setLicensed] = useState(true);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!user) {
      const problem = email.trim() === '' ? t('common:validation.required') : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? undefined : t('common:validation.email');
      setEmailError(problem);
      if (problem) return;
    }
    setPending(true);
    try {
      const names = { firstName: firstName.trim(), lastName: lastName.trim(), language, roleNames: roles };
      if (user) {
        await updateUser(user.uuid, names);
        notify('success', t('admin:users.edit.done', { name: displayName({ ...user, ...names }) }), undefined, { replaces: USER_TOAST });
      } else {
        await createUser({ email: email.trim(), ...names, licensed });
        notify('success', t('admin:users.create.done', { email: email.trim() }), undefined, { replaces: USER_TOAST });
      }
      onDone();
      onClose();
    } catch (error) {
      setFailure(failureText(t, error));
    } finally {
      setPending(false);
    }
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={user ? t('admin:users.edit.title', { name: displayName(user) }) : t('admin:users.create.title')}
      onSubmit={submit}
      submitLabel={user ? t('admin:users.edit.submit') : t('admin:users.create.submit')}
      submitDisabled={pending}
      surfaceClassName={styles.surface}
      contentClassName={styles.form}
    >
      {user ? null : <Text as="p">{t('admin:users.create.intro')}</Text>}
      {failure ? <Alert type="error">{failure}</Alert> : null}
      {user ? (
        <Text as="p">{t('admin:users.edit.email', { email: user.email })}</Text>
      ) : (
        <Field label={t('admin:users.create.email')} required validationMessage={emailError}>
          <Input type="email" autoComplete="off" value={email} onChange={(_e, data) => setEmail(data.value)} />
        </Field>
      )}
      {user ? null : (
        <Field hint={t('admin:users.create.licensedHint')}>
          <Switch checked={licensed} label={t('admin:users.create.licensed')} onChange={(_e, data) => setLicensed(data.checked)} />
        </Field>
      )}
      <div className={styles.names}>
        <Field label={t('admin:users.form.firstName')}>
          <Input value={firstName} maxLength={100} onChange={(_e, data) => setFirstName(data.value)} />
        </Field>
        <Field label={t('admin:users.form.lastName')}>
          <Input value={lastName} maxLength={100} onChange={(_e, data) => setLastName(data.value)} />
        </Field>
        <Field label={t('admin:users.form.language')} hint={t('admin:users.form.languageHint')}>
          <LanguageSelect value={language} onChange={setLanguage} />
        </Field>
      </div>
      <Text as="h3" weight="semibold" size={400} style={{ margin: '8px 0 0' }}>
        {t('admin:users.form.roles')}
      </Text>
      <Text as="p" style={{ margin: 0 }}>
        {canGrantAdmin ? t('admin:users.form.rolesIntro') : t('admin:users.form.rolesIntroUserAdmin')}
      </Text>
      <RoleChoice value={roles} onChange={setRoles} canGrantAdmin={canGrantAdmin} />
      {/* Storage quota (issue 32): its own save; the routes are ROLE_ADMIN's. */}
      {user && canGrantAdmin ? <UserQuotaField userUuid={user.uuid} /> : null}
    </FormDialog>
  );
}

export interface ConfirmRequest {
  title: string;
  intro: string;
  consequences: string[];
  confirmLabel: string;
  /** Runs the change; the dialog shows the toast texts. */
  run: () => Promise<void>;
  done: string;
  failed: string;
}

/** Asks before a change that cannot simply be taken back (disable, delete, resets). */
export function ConfirmDialog({ request, onClose, onDone }: { request: ConfirmRequest | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const [pending, setPending] = useState(false);

  async function confirm() {
    if (!request) return;
    setPending(true);
    try {
      await request.run();
      notify('success', request.done, undefined, { replaces: USER_TOAST });
      onDone();
      onClose();
    } catch (error) {
      notify('error', request.failed, failureText(t, error));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open={request !== null} onOpenChange={(_e, data) => (data.open ? undefined : onClose())} modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{request?.title}</DialogTitle>
          <DialogContent>
            <Text as="p" style={{ margin: 0 }}>
              {request?.intro}
            </Text>
            {request && request.consequences.length > 0 ? (
              <ul className={styles.consequences}>
                {request.consequences.map((line): ReactNode => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : null}
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="secondary">{t('common:actions.cancel')}</Button>
            </DialogTrigger>
            <Button appearance="primary" onClick={() => void confirm()} disabled={pending}>
              {request?.confirmLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
