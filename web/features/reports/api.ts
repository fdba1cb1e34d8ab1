import { call } from '@shared/api/call';
import { API_BASE } from '@shared/contract/constants';
import { REPORT_ENDPOINTS } from '@shared/contract/endpoints/reports';
import type { ReportKind, ReportRange } from '@shared/contract/reports';
import { apiClient } from '@web/lib/api-client';
import useSWR from 'swr';

const SWR_OPTIONS = { revalidateOnFocus: false, keepPreviousData: true } as const;

/** The four reports of a range (GET /reports/*); `range` undefined: nothing is asked (an invalid range). */
export function useReports(range: ReportRange | undefined) {
  const key = (kind: ReportKind) => (range ? ([`reports/${kind}`, range.from, range.to] as const) : null);
  const query = range ? { from: range.from, to: range.to } : { from: '', to: '' };
  return {
    deliveries: useSWR(key('deliveries'), () => call(apiClient, REPORT_ENDPOINTS.deliveries, { query }), SWR_OPTIONS),
    downloads: useSWR(key('downloads'), () => call(apiClient, REPORT_ENDPOINTS.downloads, { query }), SWR_OPTIONS),
    activeUsers: useSWR(key('activeUsers'), () => call(apiClient, REPORT_ENDPOINTS.activeUsers, { query }), SWR_OPTIONS),
    storage: useSWR(key('storage'), () => call(apiClient, REPORT_ENDPOINTS.storage, { query }), SWR_OPTIONS),
  };
}

const CSV_ENDPOINTS = {
  deliveries: REPORT_ENDPOINTS.deliveriesCsv,
  storage: REPORT_ENDPOINTS.storageCsv,
  activeUsers: REPORT_ENDPOINTS.activeUsersCsv,
  downloads: REPORT_ENDPOINTS.downloadsCsv,
} as const;

/**
 * The CSV's address: a plain same-origin GET link (the session cookie goes along; a GET needs no
 * anti-forgery value), so the browser's own download takes the server's file name.
 */
export const reportCsvUrl = (kind: ReportKind, range: ReportRange): string =>
  `${API_BASE}${CSV_ENDPOINTS[kind].path}?${new URLSearchParams({ from: range.from, to: range.to }).toString()}`;
