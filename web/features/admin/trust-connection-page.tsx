import { Button, Field, Input, makeStyles, Text, Textarea } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { TRUST_MESSAGES, TrustConnectionInputSchema, type TrustConnection } from '@shared/contract/trust-networks';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { UnsavedChangesDialog, useUnsavedChangesGuard } from '@web/components/unsaved-changes';
import { displayFingerprint } from '@web/lib/fingerprint';
import { useNotify } from '@web/lib/toasts';
import { focusFirstInvalid } from '@web/lib/validation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { createTrustConnection, loadTrustConnection, testTrustConnection, updateTrustConnection } from './api/trust-networks';
import { TRUST_BASE } from './trust-networks-page';
import { TrustStatus } from './trust-status';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px', maxWidth: '720px' },
  form: { display: 'flex', flexDirection: 'column', gap: '12px' },
  key: { fontFamily: 'monospace', overflowWrap: 'anywhere' },
  row: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
});

interface Draft {
  partnerUrl: string;
  domains: string;
  partnerPublicKey: string;
}
type FieldName = 'partnerUrl' | 'partnerDomains' | 'partnerPublicKey';

const EMPTY: Draft = { partnerUrl: '', domains: '', partnerPublicKey: '' };
const draftOf = (c: TrustConnection): Draft => ({ partnerUrl: c.partnerUrl, domains: c.partnerDomains.join('\n'), partnerPublicKey: c.partnerPublicKey ?? '' });
const bodyOf = (d: Draft) => ({ partnerUrl: d.partnerUrl.trim(), partnerDomains: d.domains.split(/[\s,;]+/).filter(Boolean), partnerPublicKey: d.partnerPublicKey.trim() });

/** The SPEC §5 messages as text keys. */
const MESSAGE_KEYS: Record<string, string> = {
  [TRUST_MESSAGES.invalidUrl]: 'admin:trust.errors.invalidUrl',
  [TRUST_MESSAGES.invalidDomain]: 'admin:trust.errors.invalidDomain',
  [TRUST_MESSAGES.noDomain]: 'admin:trust.errors.noDomain',
  [TRUST_MESSAGES.invalidKey]: 'admin:trust.errors.invalidKey',
};

/** trust-networks/create and trust-networks/edit/{connectionId} (SPEC §2): the form, own key to copy, partner fingerprint to compare, test. */
export function TrustConnectionPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const { connectionId } = useParams();
  const formRef = useRef<HTMLFormElement>(null);
  const [connection, setConnection] = useState<TrustConnection | undefined>();
  const [initial, setInitial] = useState<Draft | undefined>(connectionId ? undefined : EMPTY);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    if (!connectionId) return;
    loadTrustConnection(connectionId).then(
      (loaded) => {
        setConnection(loaded);
        setInitial(draftOf(loaded));
        setDraft(draftOf(loaded));
      },
      () => setLoadFailed(true),
    );
  }, [connectionId]);

  const dirty = initial !== undefined && (draft.partnerUrl !== initial.partnerUrl || draft.domains !== initial.domains || draft.partnerPublicKey !== initial.partnerPublicKey);
  const blocker = useUnsavedChangesGuard(dirty && !busy);

  const set = (key: keyof Draft, field: FieldName) => (value: string) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors(({ [field]: _dropped, ...rest }) => rest);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const parsed = TrustConnectionInputSchema.safeParse(bodyOf(draft));
    if (!parsed.success) {
      const next: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FieldName;
        next[field] ??= t(MESSAGE_KEYS[issue.message] ?? 'admin:trust.errors.invalid');
      }
      setErrors(next);
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setBusy(true);
    try {
      const saved = connectionId ? await updateTrustConnection(connectionId, bodyOf(draft)) : await createTrustConnection(bodyOf(draft));
      setConnection(saved);
      setInitial(draftOf(saved));
      setDraft(draftOf(saved));
      notify('success', t('admin:trust.saved'));
      if (!connectionId) void navigate(`${TRUST_BASE}/edit/${saved.connectionId}`, { replace: true });
    } catch (error) {
      const problem = isApiError(error) ? (error.error?.metadata as { problems?: { reason?: string }[] } | undefined)?.problems?.[0]?.reason : undefined;
      if (problem === 'duplicateKey' || problem === 'ownKey') setErrors({ partnerPublicKey: t(`admin:trust.errors.${problem}`) });
      // SPEC §8: generic create and edit errors.
      setFailure(t(connectionId ? 'admin:trust.editFailed' : 'admin:trust.createFailed'));
    } finally {
      setBusy(false);
    }
  }

  async function test() {
    if (!connection) return;
    setBusy(true);
    try {
      setConnection(await testTrustConnection(connection.connectionId));
    } catch {
      notify('error', t('admin:trust.testError'));
    } finally {
      setBusy(false);
    }
  }

  const copy = (value: string) =>
    navigator.clipboard.writeText(value).then(
      () => notify('success', t('admin:trust.copied')),
      () => notify('error', t('admin:trust.copyFailed')),
    );

  if (loadFailed) return <Alert type="error">{t('admin:trust.loadFailed')}</Alert>;
  if (!initial) return <Text>{t('admin:trust.loading')}</Text>;

  return (
    <div className={styles.page}>
      <PageHeading focusOnMount>{connectionId ? t('admin:trust.editTitle') : t('admin:trust.createTitle')}</PageHeading>
      {failure ? <Alert type="error">{failure}</Alert> : null}
      <form ref={formRef} className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <Field label={t('admin:trust.fields.partnerUrl')} hint={t('admin:trust.fields.partnerUrlHint')} required validationMessage={errors.partnerUrl} validationState={errors.partnerUrl ? 'error' : 'none'}>
          <Input name="partnerUrl" type="url" value={draft.partnerUrl} onChange={(_e, data) => set('partnerUrl', 'partnerUrl')(data.value)} />
        </Field>
        <Field label={t('admin:trust.fields.domains')} hint={t('admin:trust.fields.domainsHint')} required validationMessage={errors.partnerDomains} validationState={errors.partnerDomains ? 'error' : 'none'}>
          <Textarea name="partnerDomains" value={draft.domains} onChange={(_e, data) => set('domains', 'partnerDomains')(data.value)} />
        </Field>
        <Field label={t('admin:trust.fields.partnerKey')} hint={t('admin:trust.fields.partnerKeyHint')} validationMessage={errors.partnerPublicKey} validationState={errors.partnerPublicKey ? 'error' : 'none'}>
          <Input name="partnerPublicKey" className={styles.key} value={draft.partnerPublicKey} onChange={(_e, data) => set('partnerPublicKey', 'partnerPublicKey')(data.value)} />
        </Field>
        <div className={styles.row}>
          <Button appearance="primary" type="submit" disabled={busy}>
            {t('admin:trust.save')}
          </Button>
          <Button onClick={() => void navigate(TRUST_BASE)}>{t('admin:trust.back')}</Button>
        </div>
      </form>
      {connection ? (
        <section aria-label={t('admin:trust.keysLabel')} className={styles.form}>
          <Field label={t('admin:trust.ownKey')}>
            <div className={styles.row}>
              <Text className={styles.key} data-testid="own-key">
                {connection.ownPublicKey}
              </Text>
              <Button size="small" onClick={() => void copy(connection.ownPublicKey)}>
                {t('admin:trust.copyKey')}
              </Button>
            </div>
          </Field>
          <Field label={t('admin:trust.ownFingerprint')}>
            <Text className={styles.key}>{displayFingerprint(connection.ownKeyFingerprint)}</Text>
          </Field>
          <Field label={t('admin:trust.partnerFingerprint')} hint={t('admin:trust.partnerFingerprintHint')}>
            <Text className={styles.key}>{connection.partnerKeyFingerprint ? displayFingerprint(connection.partnerKeyFingerprint) : t('admin:trust.noPartnerKey')}</Text>
          </Field>
          <Field label={t('admin:trust.columns.status')}>
            <TrustStatus connection={connection} />
          </Field>
          <div className={styles.row}>
            <Button onClick={() => void test()} disabled={busy || dirty || connection.partnerPublicKey === null}>
              {t('admin:trust.test')}
            </Button>
          </div>
        </section>
      ) : null}
      <UnsavedChangesDialog
        blocker={blocker}
        labels={{ title: t('admin:settingsForm.leaveTitle'), text: t('admin:trust.leaveText'), stay: t('admin:settingsForm.stay'), leave: t('admin:settingsForm.leave') }}
      />
    </div>
  );
}
