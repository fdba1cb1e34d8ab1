import { Body1, Button, Card, Field, Input, makeStyles } from '@fluentui/react-components';
import { LockClosedRegular } from '@fluentui/react-icons';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isPasswordRefusal, linkErrorKey } from './link-errors';

const useStyles = makeStyles({
  card: { maxWidth: '560px', margin: '0 auto', padding: '24px', display: 'grid', gap: '16px' },
  form: { display: 'grid', gap: '12px', maxWidth: '360px' },
  submit: { justifySelf: 'start' },
});

/**
 * A protected link's password request, shared by the file link's and the folder link's landing
 * pages: `error` is the server's refusal (passwordRequired or passwordWrong, shown at the field).
 */
export function LinkPasswordCard({ error, busy, testId, onPassword }: { error: unknown; busy: boolean; testId: string; onPassword: (password: string) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [typed, setTyped] = useState('');
  const wrong = linkErrorKey(error) === 'passwordWrong';
  return (
    <Card className={styles.card}>
      <PageHeading focusOnMount>{t('roomLinks:page.passwordTitle')}</PageHeading>
      <Body1 as="p" style={{ margin: 0 }}>
        {t('roomLinks:page.passwordIntro')}
      </Body1>
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          onPassword(typed);
        }}
      >
        <Field label={t('roomLinks:page.password')} required validationState={wrong ? 'error' : 'none'} validationMessage={wrong ? t('roomLinks:page.errors.passwordWrong') : undefined}>
          <Input type="password" autoComplete="off" value={typed} data-testid={testId} onChange={(_e, data) => setTyped(data.value)} />
        </Field>
        <Button appearance="primary" type="submit" icon={<LockClosedRegular />} disabled={typed === '' || busy} className={styles.submit}>
          {t('roomLinks:page.unlock')}
        </Button>
      </form>
    </Card>
  );
}

/**
 * What a link's landing page shows instead of its content when the server refused: the password
 * request (passwordRequired, passwordWrong) or the reason the link is unavailable.
 */
export function LinkRefusal({ error, busy, testId, onPassword }: { error: unknown; busy: boolean; testId: string; onPassword: (password: string) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (isPasswordRefusal(error)) return <LinkPasswordCard error={error} busy={busy} testId={testId} onPassword={onPassword} />;
  return (
    <Card className={styles.card}>
      <PageHeading focusOnMount>{t('roomLinks:page.unavailableTitle')}</PageHeading>
      <Alert type="error">{t(`roomLinks:page.errors.${linkErrorKey(error)}`)}</Alert>
    </Card>
  );
}
