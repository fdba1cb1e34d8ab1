import { RouterLink } from '@web/components/router-link';
import { Body1 } from '@fluentui/react-components';
import { PageHeading } from '@web/components/page-heading';
import { ROUTES } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';

/** Placeholder for menu areas that are not built yet, so every menu entry leads somewhere. */
export function ComingSoonPage() {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as { titleKey?: string } | undefined;
  return (
    <>
      <PageHeading focusOnMount>{handle?.titleKey ? t(handle.titleKey) : t('shell:comingSoon.title')}</PageHeading>
      <Body1 as="p">{t('shell:comingSoon.text')}</Body1>
      <p>
        <RouterLink to={ROUTES.inbox}>{t('shell:comingSoon.backToInbox')}</RouterLink>
      </p>
    </>
  );
}
