import { contentDisposition } from '@shared/contract/content-disposition';
import { FORM_ADMIN_ENDPOINTS } from '@shared/contract/endpoints/form-admin';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../core/endpoint-route';
import { requestContext } from '../core/request-context';
import { toWireForm } from './forms';
import { formHistory } from './history';
import { formResponseSummary, formSubmissionsCsv, listFormSubmissions } from './submission-list';
import { createFromTemplate, listTemplates } from './templates';

/** Form administration beyond the form itself (shared/contract/form-admin.ts); registered by ./routes.ts. */
export function registerFormAdminRoutes(app: FastifyInstance): void {
  registerEndpoint(app, FORM_ADMIN_ENDPOINTS.history, async (request) =>
    formHistory(app, requestContext(app, request).user, request.params.formUuid, request.query.page, request.query.pageSize),
  );

  registerEndpoint(app, FORM_ADMIN_ENDPOINTS.templates, async (request) => ({ items: await listTemplates(app, requestContext(app, request).user) }));

  registerEndpoint(app, FORM_ADMIN_ENDPOINTS.fromTemplate, async (request, reply) => {
    const row = await createFromTemplate(app, requestContext(app, request).user, request.body);
    void reply.code(201);
    return toWireForm(app, row);
  });

  registerEndpoint(app, FORM_ADMIN_ENDPOINTS.submissions, async (request) =>
    listFormSubmissions(app, requestContext(app, request).user, request.params.formUuid, request.query.page, request.query.pageSize),
  );

  registerEndpoint(app, FORM_ADMIN_ENDPOINTS.summary, async (request) => formResponseSummary(app, requestContext(app, request).user, request.params.formUuid));

  registerEndpoint(app, FORM_ADMIN_ENDPOINTS.submissionsCsv, async (request, reply) => {
    const { text, fileName } = await formSubmissionsCsv(app, requestContext(app, request).user, request.params.formUuid);
    return reply.type('text/csv; charset=utf-8').header('cache-control', 'no-store').header('content-disposition', contentDisposition(fileName)).send(text);
  });
}
