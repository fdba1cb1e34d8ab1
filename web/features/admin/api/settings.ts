import { isApiError } from '@shared/api/api-error';
import { call } from '@shared/api/call';
import type { ConfigValue } from '@shared/contract/config';
import { ADMIN_ENDPOINTS } from '@shared/contract/endpoints/admin';
import type { AdminSettingsResponse, SettingProblem } from '@shared/contract/settings';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

const SETTINGS_KEY = 'admin/settings';

/** GET /admin/settings (ROLE_ADMIN): every setting with its current value. */
export const useAdminSettings = () =>
  useSWR(SETTINGS_KEY, () => call(apiClient, ADMIN_ENDPOINTS.settings, {}), { revalidateOnFocus: false });

/** PUT /admin/settings (ROLE_ADMIN): only the given keys change; answers every setting. */
export async function saveAdminSettings(changes: Record<string, ConfigValue>): Promise<AdminSettingsResponse> {
  return call(apiClient, ADMIN_ENDPOINTS.updateSettings, { body: changes });
}

/** The per-key problems of a refused PUT (400 ValidationException), or null for any other failure. */
export function settingProblemsOf(error: unknown): SettingProblem[] | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const problems = (error.error?.metadata as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems)) return null;
  return problems.filter((p): p is SettingProblem => typeof p === 'object' && p !== null && typeof p.key === 'string' && typeof p.problem === 'string');
}
