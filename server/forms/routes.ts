import { FORM_ENDPOINTS } from '@shared/contract/endpoints/forms';
import { registerEndpoint } from '../core/endpoint-route';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { registerFormAdminRoutes } from './admin-routes';
import { assertMayEditForm } from './admin-settings';
import { deleteForm, formByUuid, listForms, saveForm, toWireForm } from './forms';
import { publicForm, startFormSubmission } from './submissions';
import { removeLayoutBlobs } from './layout-images';

/**
 * Web forms (shared/contract/forms.ts): administration for ROLE_SECUFORMS and ROLE_ADMIN, the
 * public page and its submission (public; a submission becomes a delivery like a submit-box one).
 */
export const formRoutes = routePlugin('kuvert-form-routes', async (app) => {
  registerEndpoint(app, FORM_ENDPOINTS.list, async (request) => ({ items: await listForms(app, requestContext(app, request).user) }));

  registerEndpoint(app, FORM_ENDPOINTS.create, async (request, reply) => {
    const { user } = requestContext(app, request);
    const row = await saveForm(app, user, request.body);
    void reply.code(201);
    return toWireForm(app, row);
  });

  registerEndpoint(app, FORM_ENDPOINTS.one, async (request) => {
    const row = await formByUuid(app, request.params.formUuid);
    await assertMayEditForm(app.db, requestContext(app, request).user, row);
    return toWireForm(app, row);
  });

  registerEndpoint(app, FORM_ENDPOINTS.update, async (request) => {
    const { user } = requestContext(app, request);
    return toWireForm(app, await saveForm(app, user, request.body, request.params.formUuid));
  });

  registerEndpoint(app, FORM_ENDPOINTS.remove, async (request, reply) => {
    await deleteForm(app, requestContext(app, request).user, request.params.formUuid);
    // The layout images' rows went with the form; their bytes go now.
    await removeLayoutBlobs(app, request.params.formUuid);
    return reply.code(204).send(null);
  });

  registerEndpoint(app, FORM_ENDPOINTS.publicForm, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return publicForm(app, request.params.formId);
  });

  registerEndpoint(app, FORM_ENDPOINTS.submit, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const started = await startFormSubmission(app, request, request.params.formId, request.body);
    void reply.code(201);
    return started;
  });

  registerFormAdminRoutes(app);
});
