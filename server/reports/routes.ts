import { reduceLanguage, type Language } from '@shared/contract/constants';
import { contentDisposition } from '@shared/contract/content-disposition';
import type { Endpoint } from '@shared/contract/endpoint';
import { REPORT_ENDPOINTS } from '@shared/contract/endpoints/reports';
import { reportCsvFileName, type ReportKind, type ReportRange } from '@shared/contract/reports';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint, type EndpointRequest } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';
import { activeUsersCsv, deliveriesCsv, downloadsCsv, storageCsv } from './csv';
import { activeUsersReport, deliveriesReport, downloadsReport, storageReport } from './queries';

/** One report: its JSON figures and its CSV text. */
interface ReportDefinition<R> {
  kind: ReportKind;
  compute: (app: FastifyInstance, range: ReportRange) => Promise<R>;
  csv: (report: R, language: Language) => string;
}

function registerCsv<R>(app: FastifyInstance, endpoint: Endpoint & typeof REPORT_ENDPOINTS.deliveriesCsv, report: ReportDefinition<R>): void {
  registerEndpoint(app, endpoint, async (request: EndpointRequest<typeof endpoint>, reply) => {
    const range = request.query;
    // The signed-in user's language picks the separator and the area names (shared/rules/csv.ts).
    const text = report.csv(await report.compute(app, range), reduceLanguage(request.user?.language ?? 'en'));
    return reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', contentDisposition(reportCsvFileName(report.kind, range)))
      .send(text);
  });
}

/**
 * Usage reports (issue 17 §3, server/README.md "Reports"): ROLE_ADMIN and `config.group.reporting`
 * (the catalogue's access rule). Every figure is an SQL aggregate (queries.ts).
 */
export const reportRoutes = routePlugin('kuvert-report-routes', async (app) => {
  registerEndpoint(app, REPORT_ENDPOINTS.deliveries, async (request) => deliveriesReport(app.db, request.query));
  registerEndpoint(app, REPORT_ENDPOINTS.storage, async (request) => storageReport(app.db, request.query));
  registerEndpoint(app, REPORT_ENDPOINTS.activeUsers, async (request) => activeUsersReport(app.db, request.query));
  registerEndpoint(app, REPORT_ENDPOINTS.downloads, async (request) => downloadsReport(app.db, request.query));

  registerCsv(app, REPORT_ENDPOINTS.deliveriesCsv, { kind: 'deliveries', compute: (a, r) => deliveriesReport(a.db, r), csv: deliveriesCsv });
  registerCsv(app, REPORT_ENDPOINTS.storageCsv, { kind: 'storage', compute: (a, r) => storageReport(a.db, r), csv: storageCsv });
  registerCsv(app, REPORT_ENDPOINTS.activeUsersCsv, { kind: 'activeUsers', compute: (a, r) => activeUsersReport(a.db, r), csv: activeUsersCsv });
  registerCsv(app, REPORT_ENDPOINTS.downloadsCsv, { kind: 'downloads', compute: (a, r) => downloadsReport(a.db, r), csv: downloadsCsv });
});
