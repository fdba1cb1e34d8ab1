import { call } from '@shared/api/call';
import { SECUPASS_ENDPOINTS } from '@shared/contract/endpoints/secupass';
import type { SecuPassState } from '@shared/contract/secupass';
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { LockClosedRegular } from '@fluentui/react-icons';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { useAuthState } from '@web/lib/auth';
import { useSecuPassSession } from '@web/lib/crypto';
import { ROUTES } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import useSWR from 'swr';

/** The signed-in user's SecuPass state (none, active, reset); undefined while loading. */
function useOwnSecuPassState(): SecuPassState | undefined {
  const { user } = useAuthState();
  return useSWR(user ? ['secupass/own', user.uuid] : null, () => call(apiClient, SECUPASS_ENDPOINTS.own, {})).data?.state;
}

/**
 * SPEC §2 "encryption activation": shown while the user has no active SecuPass (E2E rooms need one).
 * On the secure-rooms list it speaks to someone about to create a first room (create a passphrase);
 * on a room's page to an invited member (an owner grants access once it exists).
 */
export function EncryptionActivation({ where }: { where: 'list' | 'room' }) {
  const { t } = useTranslation();
  const location = useLocation();
  const state = useOwnSecuPassState();
  if (!state || state === 'active') return null;
  return (
    <MessageBar intent="warning" layout="multiline" style={{ marginBottom: 16 }}>
      <MessageBarBody>
        <MessageBarTitle>{t('rooms:e2e.activation.title')}</MessageBarTitle>
        {where === 'list' ? t('rooms:e2e.activation.textFirst') : t('rooms:e2e.activation.text')}
      </MessageBarBody>
      <MessageBarActions>
        {/* `continue`: the SecuPass pages speak of this room and lead back to it (secupass-context.ts). */}
        <RouterLink to={`${ROUTES.createSecuPass}?continue=${encodeURIComponent(`${location.pathname}${location.search}`)}`}>{t('rooms:e2e.activation.action')}</RouterLink>
      </MessageBarActions>
    </MessageBar>
  );
}

/**
 * A passphrase exists but its keys are not unlocked in this page (e.g. after a reload: keys live only
 * in the page's memory): says so and offers "Enter passphrase". Nothing while there is no passphrase
 * yet (EncryptionActivation asks to create one instead) or while the keys are open.
 */
export function LockedKeysNotice({ onUnlock }: { onUnlock: () => void }) {
  const { t } = useTranslation();
  const state = useOwnSecuPassState();
  const session = useSecuPassSession();
  if (session || state !== 'active') return null;
  return (
    <MessageBar intent="info" layout="multiline" style={{ margin: '12px 0' }}>
      <MessageBarBody>
        <MessageBarTitle>{t('rooms:e2e.lockedTitle')}</MessageBarTitle>
        {t('rooms:e2e.lockedText')}
      </MessageBarBody>
      <MessageBarActions>
        <Button icon={<LockClosedRegular />} onClick={onUnlock}>
          {t('rooms:e2e.unlock')}
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
