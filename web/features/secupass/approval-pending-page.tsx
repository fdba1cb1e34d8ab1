import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { ROUTES } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';
import { SecuPassCard } from './secupass-card';

/** SPEC §2/§4: after creating a passphrase from an invitation the sender must release the delivery. */
export function SecuPassApprovalPendingPage() {
  const { t } = useTranslation();
  return (
    <SecuPassCard>
      <PageHeading focusOnMount>{t('secupass:approval.title')}</PageHeading>
      <p>{t('secupass:approval.text')}</p>
      <p>{t('secupass:approval.mail')}</p>
      <RouterLink to={ROUTES.inbox}>{t('secupass:approval.toInbox')}</RouterLink>
    </SecuPassCard>
  );
}
