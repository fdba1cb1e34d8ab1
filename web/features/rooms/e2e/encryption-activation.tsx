import { call } from '@shared/api/call';
import { SECUPASS_ENDPOINTS } from '@shared/contract/endpoints/secupass';
import { MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { ROUTES } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import useSWR from 'swr';

/** SPEC §2 "encryption activation": shown while the user has no active SecuPass (E2E rooms need one). */
export function EncryptionActivation() {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const location = useLocation();
  const own = useSWR(user ? ['secupass/own', user.uuid] : null, () => call(apiClient, SECUPASS_ENDPOINTS.own, {}));
  if (!own.data || own.data.state === 'active') return null;
  return (
    <MessageBar intent="warning" layout="multiline" style={{ marginBottom: 16 }}>
      <MessageBarBody>
        <MessageBarTitle>{t('rooms:e2e.activation.title')}</MessageBarTitle>
        {t('rooms:e2e.activation.text')}
      </MessageBarBody>
      <MessageBarActions>
        {/* `continue`: the SecuPass pages speak of this room and lead back to it (secupass-context.ts). */}
        <RouterLink to={`${ROUTES.createSecuPass}?continue=${encodeURIComponent(`${location.pathname}${location.search}`)}`}>{t('rooms:e2e.activation.action')}</RouterLink>
      </MessageBarActions>
    </MessageBar>
  );
}
