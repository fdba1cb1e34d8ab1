import { Button, Spinner } from '@fluentui/react-components';
import { ArrowReplyRegular, PrintRegular } from '@fluentui/react-icons';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { ROUTES } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';
import { useNavigate, useOutlet, useParams } from 'react-router';
import { useActivity } from './api/activity';
import { forgetDeliveries, removeDelivery } from './api/delete-delivery';
import { useDelivery } from './api/delivery';
import { useInbox } from './api/inbox';
import { DeliveriesList } from './deliveries-list';
import { deliveryLoadMessageKey } from './delivery-errors';
import { replyLink } from './delivery-format';
import { ActivityLog, DeleteDeliveryButton, DeliveryView } from './delivery-view';
import { E2eAccessAlerts, E2eDeliveryPanel, isE2eDelivery } from './e2e-panel';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { useEffect } from 'react';
import { track } from '@web/lib/analytics/analytics';

export const inboxDetailPath = (deliveryUuid: string) => `${ROUTES.inbox}/${encodeURIComponent(deliveryUuid)}`;

/** Inbox list (SPEC §2); the nested detail replaces it when a delivery is open. */
export function InboxPage() {
  const { t } = useTranslation();
  const outlet = useOutlet();
  if (outlet) return outlet;
  return (
    <>
      <PageHeading focusOnMount>{t('shell:inbox.title')}</PageHeading>
      <DeliveriesList kind="inbox" useList={useInbox} detailPath={inboxDetailPath} />
    </>
  );
}

/** Inbox detail: Reply, Print, Delete (confirm), activity log; alerts for expired deliveries. */
export function InboxDetailPage() {
  const { t } = useTranslation();
  const { deliveryUuid } = useParams();
  const navigate = useNavigate();
  const { data: delivery, error } = useDelivery(deliveryUuid);
  const { data: activity, downloadStarted: activityAfterDownload } = useActivity(deliveryUuid);
  const downloadStarted = () => {
    track(ANALYTICS_ACTIONS.deliveryAttachmentsDownloaded);
    activityAfterDownload();
  };
  const opened = delivery?.deliveryUuid;
  useEffect(() => {
    if (opened) track(ANALYTICS_ACTIONS.deliveryOpened);
  }, [opened]);
  return (
    <>
      <PageHeading focusOnMount>{t('deliveries:inbox.detailTitle')}</PageHeading>
      <p data-no-print>
        <RouterLink to={ROUTES.inbox}>{t('deliveries:inbox.back')}</RouterLink>
      </p>
      {error ? <Alert type="error">{t(deliveryLoadMessageKey(error))}</Alert> : null}
      {!delivery && !error ? <Spinner label={t('common:loading')} /> : null}
      {delivery ? (
        <DeliveryView
          delivery={delivery}
          onDownload={downloadStarted}
          actions={
            <>
              {/* A level 3/4 form submission's sender is an account made for it alone (issue 33 §2): nobody to reply to. */}
              {delivery.fromForm ? null : (
                <Button
                  as="a"
                  icon={<ArrowReplyRegular />}
                  href={replyLink(ROUTES.send, delivery.sender.email, delivery.subject)}
                  onClick={(event) => {
                    event.preventDefault();
                    track(ANALYTICS_ACTIONS.deliveryReplyButton);
                    void navigate(replyLink(ROUTES.send, delivery.sender.email, delivery.subject));
                  }}
                >
                  {t('deliveries:actions.reply')}
                </Button>
              )}
              <Button
                icon={<PrintRegular />}
                onClick={() => {
                  track(ANALYTICS_ACTIONS.printDeliveryButton);
                  window.print();
                }}
              >
                {t('deliveries:actions.print')}
              </Button>
              <DeleteDeliveryButton
                forEveryone={false}
                onConfirm={() => {
                  track(ANALYTICS_ACTIONS.deleteDeliveryButton);
                  return removeDelivery(delivery.deliveryUuid);
                }}
                onDeleted={() => void forgetDeliveries().then(() => navigate(ROUTES.inbox))}
              />
            </>
          }
        >
          {isE2eDelivery(delivery) ? (
            <>
              <E2eAccessAlerts delivery={delivery} />
              <E2eDeliveryPanel delivery={delivery} onDownloaded={downloadStarted} />
            </>
          ) : null}
          {activity && activity.length > 0 ? <ActivityLog entries={activity} /> : null}
        </DeliveryView>
      ) : null}
    </>
  );
}
