import { defineEndpoint } from '../endpoint';
import { ActiveUsersReportSchema, DeliveriesReportSchema, DownloadsReportSchema, REPORT_ROLES, ReportRangeQuerySchema, StorageReportSchema } from '../reports';

const REPORTERS = { roles: REPORT_ROLES } as const;
const CSV = ['text/csv'] as const;

const json = <S extends typeof DeliveriesReportSchema | typeof StorageReportSchema | typeof ActiveUsersReportSchema | typeof DownloadsReportSchema>(
  path: string,
  schema: S,
  operationId: string,
  summary: string,
) =>
  defineEndpoint({
    method: 'GET',
    path,
    query: ReportRangeQuerySchema,
    response: { 200: schema },
    errors: [400, 401, 403],
    access: REPORTERS,
    operationId,
    summary,
    tag: 'reports',
  });

const csv = (path: string, operationId: string, summary: string) =>
  defineEndpoint({
    method: 'GET',
    path,
    query: ReportRangeQuerySchema,
    response: {},
    errors: [400, 401, 403],
    access: REPORTERS,
    produces: CSV,
    operationId,
    summary,
    tag: 'reports',
  });

/** Usage reports (shared/contract/reports.ts): each as JSON and as a CSV download. */
export const REPORT_ENDPOINTS = {
  deliveries: json('/reports/deliveries', DeliveriesReportSchema, 'getDeliveriesReport', 'Deliveries sent and received per day and security level'),
  deliveriesCsv: csv('/reports/deliveries/csv', 'getDeliveriesReportCsv', 'The deliveries report as CSV'),
  storage: json('/reports/storage', StorageReportSchema, 'getStorageReport', 'Storage used per area, and added in the range'),
  storageCsv: csv('/reports/storage/csv', 'getStorageReportCsv', 'The storage report as CSV'),
  activeUsers: json('/reports/active-users', ActiveUsersReportSchema, 'getActiveUsersReport', 'Active users and senders per day'),
  activeUsersCsv: csv('/reports/active-users/csv', 'getActiveUsersReportCsv', 'The active-users report as CSV'),
  downloads: json('/reports/downloads', DownloadsReportSchema, 'getDownloadsReport', 'File downloads per day and security level'),
  downloadsCsv: csv('/reports/downloads/csv', 'getDownloadsReportCsv', 'The downloads report as CSV'),
};
