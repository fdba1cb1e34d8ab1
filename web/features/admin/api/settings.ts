import { isApiError } from '@shared/api/api-error';
import type { ConfigValue } from '@shared/contract/config';
import { ADMIN_SETTINGS_PATH, type AdminSettingsResponse, type SettingProblem } from '@shared/contract/settings';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

const SETTINGS_KEY = 'admin/settings';

/** GET /admin/settings (ROLE_ADMIN): every setting with its current value. */
export const useAdminSettings = () =>
  useSWR(SETTINGS_KEY, () => apiClient.get<AdminSettingsResponse>(ADMIN_SETTINGS_PATH), { revalidateOnFocus: false });

/** PUT /admin/settings (ROLE_ADMIN): only the given keys change; answers every setting. */
export async function saveAdminSettings(changes: Record<string, ConfigValue>): Promise<AdminSettingsResponse> {
  const response = await apiClient.request<AdminSettingsResponse>('PUT', ADMIN_SETTINGS_PATH, { body: changes });
  return response.data;
}

/** The per-key problems of a refused PUT (400 ValidationException), or null for any other failure. */
export function settingProblemsOf(error: unknown): SettingProblem[] | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const problems = (error.error?.metadata as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems)) return null;
  return problems.filter((p): p is SettingProblem => typeof p === 'object' && p !== null && typeof p.key === 'string' && typeof p.problem === 'string');
}
