import { endpointArea } from '../endpoint';
import { FORM_ROLES } from '../forms';
import { FormBackgroundInfoSchema, FormImageVersionQuerySchema, FormLayoutImageParamsSchema, FORM_BACKGROUND_TYPES, PublicFormImageParamsSchema } from '../form-layout';

const area = endpointArea({ tag: 'forms', access: { roles: FORM_ROLES } });

/** A web form's background image (shared/contract/form-layout.ts, server/forms/layout-images.ts). */
export const FORM_LAYOUT_ENDPOINTS = {
  backgroundInfo: area.get('/forms/{formUuid}/background-image/info', 'getFormBackgroundImage', 'The form\'s background image (type, size, dimensions, URL), or null', {
    params: FormLayoutImageParamsSchema, response: { 200: FormBackgroundInfoSchema }, errors: [404],
  }),
  putBackground: area.put('/forms/{formUuid}/background-image', 'uploadFormBackgroundImage', 'Uploads or replaces the form\'s background image (raw PNG, JPEG or WebP bytes; type from the content, size and dimensions limited)', {
    params: FormLayoutImageParamsSchema, response: { 200: FormBackgroundInfoSchema }, errors: [400, 404, 413], consumes: 'application/octet-stream',
  }),
  removeBackground: area.delete('/forms/{formUuid}/background-image', 'removeFormBackgroundImage', 'Removes the form\'s background image', {
    params: FormLayoutImageParamsSchema, response: { 200: FormBackgroundInfoSchema }, errors: [404],
  }),
  publicBackground: area.get('/public-forms/{formId}/background-image', 'getPublicFormBackgroundImage', 'The background image of a form\'s public page (image bytes)', {
    params: PublicFormImageParamsSchema, query: FormImageVersionQuerySchema, response: {}, errors: [404], produces: [...FORM_BACKGROUND_TYPES], access: 'public',
  }),
};
