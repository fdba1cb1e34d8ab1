import { makeStyles } from '@fluentui/react-components';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { ROUTES } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';
import { SecuPassCard } from './secupass-card';
import { useSecuPassContext } from './secupass-context';

const useStyles = makeStyles({ links: { display: 'flex', gap: '16px', flexWrap: 'wrap' } });

/**
 * SPEC §2/§4: after creating a passphrase from an invitation the sender must release the delivery;
 * the recipient is mailed then. `continue` (the delivery the invitation came from) is offered back.
 * Reached from a data room (secupass-context.ts), an owner must grant access instead, and the room
 * is offered back; without either, neutral words.
 */
export function SecuPassApprovalPendingPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const context = useSecuPassContext();
  if (context.kind === 'room' && !context.roomPage) {
    // From the secure-rooms list (a first own room): nobody has to grant anything.
    return (
      <SecuPassCard>
        <PageHeading focusOnMount>{t('secupass:create.successTitle')}</PageHeading>
        <Alert type="success">{t('secupass:room.readyText')}</Alert>
        <div className={styles.links}>
          <RouterLink to={ROUTES.secureRooms}>{t('secupass:room.toRooms')}</RouterLink>
        </div>
      </SecuPassCard>
    );
  }
  if (context.kind === 'room') {
    return (
      <SecuPassCard>
        <PageHeading focusOnMount>{t('secupass:room.approvalTitle')}</PageHeading>
        <Alert type="success">{t('secupass:room.approvalText')}</Alert>
        <p>{t('secupass:room.approvalNext')}</p>
        <div className={styles.links}>
          {context.roomPage ? <RouterLink to={context.target}>{t('secupass:room.toRoom')}</RouterLink> : null}
          <RouterLink to={ROUTES.secureRooms}>{t('secupass:room.toRooms')}</RouterLink>
        </div>
      </SecuPassCard>
    );
  }
  if (context.kind === 'none') {
    return (
      <SecuPassCard>
        <PageHeading focusOnMount>{t('secupass:create.successTitle')}</PageHeading>
        <Alert type="success">{t('secupass:neutral.text')}</Alert>
        <div className={styles.links}>
          {context.target ? <RouterLink to={context.target}>{t('secupass:success.continue')}</RouterLink> : null}
          <RouterLink to={ROUTES.inbox}>{t('secupass:approval.toInbox')}</RouterLink>
        </div>
      </SecuPassCard>
    );
  }
  return (
    <SecuPassCard>
      <PageHeading focusOnMount>{t('secupass:approval.title')}</PageHeading>
      <Alert type="success">{t('secupass:approval.text')}</Alert>
      <p>{t('secupass:approval.mail')}</p>
      <div className={styles.links}>
        <RouterLink to={context.target}>{t('secupass:approval.toDelivery')}</RouterLink>
        <RouterLink to={ROUTES.inbox}>{t('secupass:approval.toInbox')}</RouterLink>
      </div>
    </SecuPassCard>
  );
}
