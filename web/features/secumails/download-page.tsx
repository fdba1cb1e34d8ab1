import { Button, Card, makeStyles, Spinner, Subtitle2, Body1 } from '@fluentui/react-components';
import { ArrowReplyRegular, ShieldCheckmarkRegular } from '@fluentui/react-icons';
import { isE2eLevel, securityLevelInfo } from '@shared/contract/security-levels';
import type { SecurityLevel } from '@shared/contract/deliveries';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { useAuthState } from '@web/lib/auth';
import { loginPathFor, ROUTES, SECUMAILS_BASE } from '@web/lib/routes';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { useDelivery } from './api/delivery';
import { deliveryLoadMessageKey, needsEmailConfirmation, needsSignIn } from './delivery-errors';
import { emailPromptPath } from './external-flow';
import { replyLink, tokenFromHash } from './delivery-format';
import { DeliveryView } from './delivery-view';
import { E2eAccessAlerts, E2eDeliveryPanel, isE2eDelivery } from './e2e-panel';

const useStyles = makeStyles({
  layout: { display: 'grid', gap: '24px', gridTemplateColumns: 'minmax(0, 1fr)', '@media (min-width: 900px)': { gridTemplateColumns: 'minmax(0, 1fr) 280px' } },
  panel: { alignSelf: 'start' },
  panelTitle: { display: 'flex', gap: '8px', alignItems: 'center' },
});

/** Success page path (SPEC §2: download success with {deliveryUuid}), in the page's locale when it has one. */
export const downloadSuccessPath = (deliveryUuid: string, locale?: string) =>
  `${SECUMAILS_BASE}${locale ? `/${locale}` : ''}/download-success/${encodeURIComponent(deliveryUuid)}`;

interface SuccessState {
  senderEmail?: string;
  subject?: string;
}

/** Explains the level the delivery was sent with (levels 1 and 2 here). */
function SecurityLevelPanel({ level }: { level: SecurityLevel }) {
  const { t } = useTranslation();
  const styles = useStyles();
  // Levels 3 and 4 share one explanation (the SecuPass opens both).
  const key = isE2eLevel(level) ? 'levelE2e' : securityLevelInfo(level).textKey;
  return (
    <Card className={styles.panel} role="complementary" aria-labelledby="security-level-title">
      <Subtitle2 as="h2" id="security-level-title" className={styles.panelTitle}>
        <ShieldCheckmarkRegular aria-hidden="true" />
        {t(`deliveries:securityLevel.${key}.title`)}
      </Subtitle2>
      <Body1 as="p">{t(`deliveries:securityLevel.${key}.text`)}</Body1>
    </Card>
  );
}

/**
 * External download (SPEC §2, public): deliveryUuid and shareUuid from the query, the level-1
 * token from the fragment (`#token=`), sent only in the x-delivery-token header and the content
 * link's `token` parameter. Without a token and signed out, the server asks for a sign-in (level 2);
 * a token without the email prompt's proof (HttpOnly cookie) sends the visitor back to the prompt.
 */
export function DownloadPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const { locale } = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const { user } = useAuthState();
  const deliveryUuid = search.get('deliveryUuid') ?? undefined;
  const [token] = useState(() => tokenFromHash(location.hash));
  const { data: delivery, error } = useDelivery(deliveryUuid, token);
  const [downloaded, setDownloaded] = useState(false);

  useEffect(() => setDownloaded(false), [deliveryUuid]);

  if (!deliveryUuid) {
    return (
      <>
        <PageHeading focusOnMount>{t('deliveries:download.title')}</PageHeading>
        <Alert type="error">{t('deliveries:messages.notFound')}</Alert>
      </>
    );
  }
  const shareUuid = search.get('shareUuid');
  if (error && needsEmailConfirmation(error) && shareUuid && token) {
    // The link token alone does not open a level-1 delivery: the address is confirmed first.
    return <Navigate to={`${emailPromptPath(shareUuid, locale)}#token=${encodeURIComponent(token)}`} replace />;
  }
  if (error && needsSignIn(error) && !user) {
    // Level 2 (or no link token): sign in and come back here.
    return <Navigate to={loginPathFor(`${location.pathname}${location.search}`)} replace />;
  }
  const successState: SuccessState = { senderEmail: delivery?.sender.email, subject: delivery?.subject };
  return (
    <>
      <PageHeading focusOnMount>{t('deliveries:download.title')}</PageHeading>
      {error ? <Alert type="error">{t(deliveryLoadMessageKey(error))}</Alert> : null}
      {!delivery && !error ? <Spinner label={t('common:loading')} /> : null}
      {delivery ? (
        <div className={styles.layout}>
          <div>
            {downloaded ? (
              <Alert
                type="success"
                action={
                  <RouterLink to={downloadSuccessPath(delivery.deliveryUuid, locale)} state={successState}>
                    {t('deliveries:download.finish')}
                  </RouterLink>
                }
              >
                {t('deliveries:download.started')}
              </Alert>
            ) : null}
            <DeliveryView delivery={delivery} token={token} onDownload={() => setDownloaded(true)}>
              {/* Levels 3/4 (signed-in recipient): create the SecuPass or wait for the release, else decrypt and download. */}
              {isE2eDelivery(delivery) ? (
                <>
                  <E2eAccessAlerts delivery={delivery} />
                  <E2eDeliveryPanel delivery={delivery} onDownloaded={() => setDownloaded(true)} />
                </>
              ) : null}
            </DeliveryView>
          </div>
          <SecurityLevelPanel level={delivery.securityLevel} />
        </div>
      ) : null}
    </>
  );
}

/** Download success (SPEC §2, public) with Reply. */
export function DownloadSuccessPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const state = (location.state ?? {}) as SuccessState;
  const reply = state.senderEmail ? replyLink(ROUTES.send, state.senderEmail, state.subject ?? '') : ROUTES.send;
  return (
    <>
      <PageHeading focusOnMount>{t('deliveries:download.successTitle')}</PageHeading>
      <Alert type="success">{t('deliveries:download.successText')}</Alert>
      <Button as="a" appearance="primary" icon={<ArrowReplyRegular />} href={reply}>
        {t('deliveries:actions.reply')}
      </Button>
    </>
  );
}
