import { getAdminAuditLog } from '@shared/api/endpoints/secupass';
import { AUDIT_PATHS, type AuditLogResponse } from '@shared/contract/audit';
import { API_BASE } from '@shared/contract/constants';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

/** The screen's filter: `from`/`to` are epoch ms (both inclusive), empty strings mean "any". */
export interface AuditFilter {
  user: string;
  action: string;
  from: number | undefined;
  to: number | undefined;
}

function filterParams(filter: AuditFilter): Record<string, string> {
  const params: Record<string, string> = {};
  if (filter.user) params.user = filter.user;
  if (filter.action) params.action = filter.action;
  if (filter.from !== undefined) params.from = String(filter.from);
  if (filter.to !== undefined) params.to = String(filter.to);
  return params;
}

/** GET /admin/audit-log (ROLE_ADMIN): newest first, paged, filtered. */
export const useAuditLog = (filter: AuditFilter, page: number, pageSize: number) =>
  useSWR(['admin/audit-log', filter.user, filter.action, filter.from, filter.to, page, pageSize] as const, (): Promise<AuditLogResponse> => getAdminAuditLog(apiClient, { ...filter, page, pageSize }), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });

/** The CSV's address: a plain same-origin GET link, so the browser's own download takes the server's file name. */
export const auditCsvUrl = (filter: AuditFilter): string => {
  const query = new URLSearchParams(filterParams(filter)).toString();
  return `${API_BASE}${AUDIT_PATHS.adminLogCsv}${query ? `?${query}` : ''}`;
};
