import { Text } from '@fluentui/react-components';
import type { TrustConnection } from '@shared/contract/trust-networks';
import { useTranslation } from 'react-i18next';

/** A connection's status; after a failed test the step that failed and why (kept on the connection, SPEC §4). */
export function TrustStatus({ connection }: { connection: TrustConnection }) {
  const { t } = useTranslation();
  const failed = connection.status === 'error' && connection.lastTest?.step;
  return (
    <span data-testid="trust-status">
      <Text weight="semibold">{t(`admin:trust.states.${connection.status}`)}</Text>
      {failed ? (
        <Text as="p" style={{ margin: 0 }}>
          {t('admin:trust.failedStep', { step: t(`admin:trust.steps.${connection.lastTest!.step!}`) })} {t(`admin:trust.stepHelp.${connection.lastTest!.step!}`)}
        </Text>
      ) : null}
    </span>
  );
}
