import { call } from '@shared/api/call';
import { ADMIN_ENDPOINTS } from '@shared/contract/endpoints/admin';
import { SETTING_KEYS } from '@shared/contract/settings';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';
import { useAdminSettings } from './settings';

/**
 * GET /admin/system/status (ROLE_ADMIN): the server's warnings. Asked again whenever the saved mail
 * settings change (choosing SMTP ends the mailbox warning).
 */
export function useSystemStatus() {
  const settings = useAdminSettings().data?.settings;
  const mail = settings ? `${String(settings[SETTING_KEYS.mailTransport])}|${String(settings[SETTING_KEYS.mailSmtpUrl])}` : 'unknown';
  return useSWR(['admin/system/status', mail] as const, () => call(apiClient, ADMIN_ENDPOINTS.systemStatus, {}), { revalidateOnFocus: false });
}
