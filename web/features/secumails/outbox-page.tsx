import { Button, Spinner } from '@fluentui/react-components';
import { MailArrowUpRegular, PrintRegular } from '@fluentui/react-icons';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { ROUTES } from '@web/lib/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useOutlet, useParams } from 'react-router';
import { useActivity } from './api/activity';
import { forgetDeliveries, removeDelivery } from './api/delete-delivery';
import { useDelivery } from './api/delivery';
import { resendNotification } from './api/resend-notification';
import { useSent } from './api/sent';
import { DeliveriesList } from './deliveries-list';
import { deliveryLoadMessageKey } from './delivery-errors';
import { isExpired } from './delivery-format';
import { E2eDeliveryPanel, isE2eDelivery, ReleaseRequiredAlert } from './e2e-panel';
import { MissingPhoneNumbersAlert } from './phone-numbers-dialog';
import { ActivityLog, DeleteDeliveryButton, DeliveryView, RecipientStates } from './delivery-view';

export const outboxDetailPath = (deliveryUuid: string) => `${ROUTES.outbox}/${encodeURIComponent(deliveryUuid)}`;

/** Sent list (SPEC §2); the nested detail replaces it when a delivery is open. */
export function OutboxPage() {
  const { t } = useTranslation();
  const outlet = useOutlet();
  if (outlet) return outlet;
  return (
    <>
      <PageHeading focusOnMount>{t('shell:deliveryMenu.sent')}</PageHeading>
      <DeliveriesList kind="sent" useList={useSent} detailPath={outboxDetailPath} />
    </>
  );
}

/** Sent detail: state per recipient, activity, Resend notification (once; not when expired/deleted), Delete for everyone. */
export function OutboxDetailPage() {
  const { t } = useTranslation();
  const { deliveryUuid } = useParams();
  const navigate = useNavigate();
  const { data: delivery, error, mutate } = useDelivery(deliveryUuid, null, { watch: true });
  const { data: activity } = useActivity(deliveryUuid);
  const [resend, setResend] = useState<'idle' | 'busy' | 'done' | 'failed'>('idle');
  const resendDisabled = !delivery || isExpired(delivery.timeState) || delivery.status !== 'sent' || resend === 'busy' || resend === 'done';
  return (
    <>
      <PageHeading focusOnMount>{t('deliveries:sent.detailTitle')}</PageHeading>
      <p data-no-print>
        <RouterLink to={ROUTES.outbox}>{t('deliveries:sent.back')}</RouterLink>
      </p>
      {error ? <Alert type="error">{t(deliveryLoadMessageKey(error))}</Alert> : null}
      {resend === 'done' ? <Alert type="success">{t('deliveries:sent.resendDone')}</Alert> : null}
      {resend === 'failed' ? <Alert type="error">{t('deliveries:sent.resendFailed')}</Alert> : null}
      {!delivery && !error ? <Spinner label={t('common:loading')} /> : null}
      {delivery ? (
        <DeliveryView
          delivery={delivery}
          actions={
            <>
              <Button
                icon={<MailArrowUpRegular />}
                disabled={resendDisabled}
                onClick={() => {
                  setResend('busy');
                  resendNotification(delivery.deliveryUuid).then(
                    () => setResend('done'),
                    () => setResend('failed'),
                  );
                }}
              >
                {t('deliveries:actions.resend')}
              </Button>
              <Button icon={<PrintRegular />} onClick={() => window.print()}>
                {t('deliveries:actions.print')}
              </Button>
              {delivery.status === 'deleted' ? null : (
                <DeleteDeliveryButton
                  forEveryone
                  onConfirm={() => removeDelivery(delivery.deliveryUuid)}
                  onDeleted={() => void forgetDeliveries().then(() => navigate(ROUTES.outbox))}
                />
              )}
            </>
          }
        >
          <MissingPhoneNumbersAlert delivery={delivery} onSaved={() => void mutate()} />
          {isE2eDelivery(delivery) ? (
            <>
              <ReleaseRequiredAlert delivery={delivery} />
              <E2eDeliveryPanel delivery={delivery} />
            </>
          ) : null}
          <RecipientStates delivery={delivery} />
          {activity && activity.length > 0 ? <ActivityLog entries={activity} /> : null}
        </DeliveryView>
      ) : null}
    </>
  );
}
