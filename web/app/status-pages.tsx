import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { ROUTES } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';

/** The generic not-found page (SPEC §2 screen list): an unknown address says so instead of jumping away. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading focusOnMount>{t('shell:notFound.title')}</PageHeading>
      <p>{t('shell:notFound.text')}</p>
      <RouterLink to={ROUTES.inbox}>{t('shell:notFound.toInbox')}</RouterLink>
    </>
  );
}

/** A role-guarded screen opened without the role (SPEC §6 "Insufficient rights message"). */
export function InsufficientRightsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading focusOnMount>{t('shell:insufficientRights.title')}</PageHeading>
      <Alert type="warning">{t('shell:insufficientRights.text')}</Alert>
      <p>
        <RouterLink to={ROUTES.inbox}>{t('shell:notFound.toInbox')}</RouterLink>
      </p>
    </>
  );
}
